## The contract suite: a convenience library linked into the CLI
## (`sandboxio contract DSN`), so an installed sandboxio runs it against an
## installed plugin without the source tree.
noinst_LTLIBRARIES += contract/libsbxcontract.la
contract_libsbxcontract_la_SOURCES = \
	contract/contract.h \
	contract/case.h \
	contract/cases.h \
	contract/runner.h \
	contract/runner.c \
	contract/discover.c \
	contract/refuse.c \
	contract/outcome.c \
	contract/helpers.c \
	contract/host.c \
	contract/report.c \
	contract/registry.c \
	contract/cases_lifecycle.c \
	contract/cases_exec.c \
	contract/cases_output.c \
	contract/cases_stdin.c \
	contract/cases_timeout.c \
	contract/cases_files.c \
	contract/cases_escape.c \
	contract/cases_persist.c \
	contract/cases_isolation.c \
	contract/cases_cleanup.c
contract_libsbxcontract_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
contract_libsbxcontract_la_LIBADD = src/libsandboxio.la $(JSONC_LIBS) -lpthread

## The CLI subcommand; cli.mk (included before this fragment) defines the program.
src_sandboxio_SOURCES += src/cli/cmd_contract.c
src_sandboxio_LDADD += contract/libsbxcontract.la
