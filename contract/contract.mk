# SPDX-License-Identifier: Apache-2.0
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
	contract/collect.c \
	contract/refuse.c \
	contract/outcome.c \
	contract/helpers.c \
	contract/host.c \
	contract/report.c \
	contract/registry.c \
	contract/cases_lifecycle.c \
	contract/cases_exec.c \
	contract/cases_workdir.c \
	contract/cases_output.c \
	contract/cases_stdin.c \
	contract/cases_pty.c \
	contract/cases_timeout.c \
	contract/cases_files.c \
	contract/cases_files_hostile.c \
	contract/cases_files_mode.c \
	contract/cases_files_meta.c \
	contract/cases_escape.c \
	contract/cases_attach.c \
	contract/cases_persist.c \
	contract/cases_isolation.c \
	contract/cases_cleanup.c \
	contract/cases_cancel.c \
	contract/cases_oneshot.c
contract_libsbxcontract_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
contract_libsbxcontract_la_LIBADD = src/libsandboxio.la $(JSONC_LIBS) -lpthread
## Its clocks are lib/'s: what links the suite links lib/libsbxu.la too (the
## CLI does), not merged in here, where the CLI's copy would clash.

## Self-test: deliberately broken plugins, each of which the suite must fail
## on the right case. Built for `make check` only, never installed.
SBXC_SELFTEST_LINK = -module -avoid-version -shared -no-undefined -rpath /nowhere \
	-export-symbols-regex '^sandboxio_plugin_v1$$' $(SAN_LDFLAGS)
SBXC_SELFTEST_COMMON = tests/plugins/contract/hostproc.c tests/plugins/contract/hostproc.h
check_LTLIBRARIES += \
	tests/plugins/contract/sandboxio-liar.la \
	tests/plugins/contract/sandboxio-leaker.la \
	tests/plugins/contract/sandboxio-sleepy.la \
	tests/plugins/contract/sandboxio-cropper.la \
	tests/plugins/contract/sandboxio-crasher.la \
	tests/plugins/contract/sandboxio-hanger.la \
	tests/plugins/contract/sandboxio-deaf.la
tests_plugins_contract_sandboxio_liar_la_SOURCES = tests/plugins/contract/liar.c $(SBXC_SELFTEST_COMMON)
tests_plugins_contract_sandboxio_liar_la_LDFLAGS = $(SBXC_SELFTEST_LINK)
tests_plugins_contract_sandboxio_leaker_la_SOURCES = tests/plugins/contract/leaker.c $(SBXC_SELFTEST_COMMON)
tests_plugins_contract_sandboxio_leaker_la_LDFLAGS = $(SBXC_SELFTEST_LINK)
tests_plugins_contract_sandboxio_sleepy_la_SOURCES = tests/plugins/contract/sleepy.c $(SBXC_SELFTEST_COMMON)
tests_plugins_contract_sandboxio_sleepy_la_LDFLAGS = $(SBXC_SELFTEST_LINK)
tests_plugins_contract_sandboxio_cropper_la_SOURCES = tests/plugins/contract/cropper.c $(SBXC_SELFTEST_COMMON)
tests_plugins_contract_sandboxio_cropper_la_LDFLAGS = $(SBXC_SELFTEST_LINK)
tests_plugins_contract_sandboxio_crasher_la_SOURCES = tests/plugins/contract/crasher.c $(SBXC_SELFTEST_COMMON)
tests_plugins_contract_sandboxio_crasher_la_LDFLAGS = $(SBXC_SELFTEST_LINK)
tests_plugins_contract_sandboxio_hanger_la_SOURCES = tests/plugins/contract/hanger.c $(SBXC_SELFTEST_COMMON)
tests_plugins_contract_sandboxio_hanger_la_LDFLAGS = $(SBXC_SELFTEST_LINK)
tests_plugins_contract_sandboxio_deaf_la_SOURCES = tests/plugins/contract/deaf.c $(SBXC_SELFTEST_COMMON)
tests_plugins_contract_sandboxio_deaf_la_LDFLAGS = $(SBXC_SELFTEST_LINK)

check_PROGRAMS += contract/tests/test_contract_report
contract_tests_test_contract_report_SOURCES = contract/tests/test_contract_report.c
contract_tests_test_contract_report_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(JSONC_CFLAGS)
contract_tests_test_contract_report_LDADD = contract/libsbxcontract.la src/libsandboxio.la lib/libsbxu.la \
	$(CHECK_LIBS) $(JSONC_LIBS)
TESTS += contract/tests/test_contract_report

SBXC_TESTS = \
	contract/tests/fake-passes-contract.sh \
	contract/tests/contract-cli-usage.sh \
	contract/tests/broken-plugins-are-caught.sh
TESTS += $(SBXC_TESTS)
EXTRA_DIST += $(SBXC_TESTS)

dist_doc_DATA += docs/contract.md
