# SPDX-License-Identifier: Apache-2.0
## (fragment: see Makefile.am)
## sandboxio: the command-line tool.
bin_PROGRAMS += src/sandboxio
src_sandboxio_SOURCES = \
	src/cli/main.c \
	src/cli/commands.h \
	src/cli/cmd_contract.c \
	src/cli/cmd_demo.c \
	src/cli/cmd_cp.c \
	src/cli/cp_copy.c \
	src/cli/cmd_create.c \
	src/cli/cmd_exec.c \
	src/cli/cmd_files.c \
	src/cli/cmd_manage.c \
	src/cli/cmd_ps.c \
	src/cli/cp.h \
	src/cli/cmd_doctor.c \
	src/cli/cmd_gc.c \
	src/cli/cmd_plugins.c \
	src/cli/cmd_profiles.c \
	src/cli/cmd_run.c \
	src/cli/cmd_shell.c \
	src/cli/cmd_version.c \
	src/cli/doctor_enforce.c \
	src/cli/doctor_online.c \
	src/cli/doctor_online.h \
	src/cli/doctor_probe.c \
	src/cli/doctor_probe.h \
	src/cli/encode.c \
	src/cli/encode.h \
	src/cli/interrupt.c \
	src/cli/interrupt.h \
	src/cli/plugin_report.c \
	src/cli/policy_profile.c \
	src/cli/profile.c \
	src/cli/profile.h \
	src/cli/profile_load.c \
	src/cli/plugin_report.h \
	src/cli/run.h \
	src/cli/run_options.c \
	src/cli/run_output.c \
	src/cli/run_tty.c \
	src/cli/run_tty.h \
	src/cli/sandbox_ref.c \
	src/cli/sandbox_ref.h \
	src/cli/util.c \
	src/cli/util.h
if SBX_HAVE_ARCHIVE
src_sandboxio_SOURCES += src/cli/cp_tar.c
else
src_sandboxio_SOURCES += src/cli/cp_tar_none.c
endif
src_sandboxio_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) $(YAML_CFLAGS) $(ARCHIVE_CFLAGS)
## Every command builds whichever backends are enabled: they reach backends
## only through the library, so one left out is a plugin not found at run
## time (`sandboxio contract docker://` says so), never a missing symbol.
## `contract` runs the suite linked in from contract/.
src_sandboxio_LDADD = contract/libsbxcontract.la src/libsandboxio.la plugins/lib/libsbxutil.la $(JSONC_LIBS) $(YAML_LIBS) $(ARCHIVE_LIBS)

dist_man_MANS += docs/man/sandboxio.1
dist_doc_DATA += docs/cli.md docs/profiles.md

## Shell tests of the CLI against the fake backend.
SBX_CLI_TESTS = \
	tests/cli/run-network-open-prints-output.sh \
	tests/cli/run-environment-not-inherited.sh \
	tests/cli/run-default-network-refused-on-fake.sh \
	tests/cli/run-exit-status-passthrough.sh \
	tests/cli/run-missing-program-exits-127-unexecutable-126.sh \
	tests/cli/run-timeout-exits-124.sh \
	tests/cli/run-interrupt-destroys-sandbox.sh \
	tests/cli/run-interrupt-stops-silent-command.sh \
	tests/cli/run-closed-stdout-stops-command.sh \
	tests/cli/run-policy-reaches-backend.sh \
	tests/cli/run-json-output.sh \
	tests/cli/run-bad-input-exit-codes.sh \
	tests/cli/plugins-json-lists-fake.sh \
	tests/cli/doctor-json-no-secrets.sh \
	tests/cli/doctor-opens-no-socket.sh \
	tests/cli/help-and-usage-errors.sh \
	tests/cli/run-profile-reaches-backend.sh \
	tests/cli/profiles-list-and-check.sh \
	tests/cli/run-interactive-stdin-streams.sh \
	tests/cli/doctor-online-contacts-backends.sh \
	tests/cli/shell-options-and-refusals.sh \
	tests/cli/demo-prints-and-runs-each-step.sh \
	tests/cli/contract-and-demo-take-profile.sh \
	tests/cli/session-create-cp-exec-ps-kill.sh \
	tests/cli/ids-prefix-unique-or-refused.sh \
	tests/cli/create-ttl-ends-sandbox.sh \
	tests/cli/create-bad-input-exit-codes.sh \
	tests/cli/cp-tar-streams.sh \
	tests/cli/cp-keeps-modes-mtimes-links.sh \
	tests/cli/exec-tty-refused-without-pty.sh
TESTS += $(SBX_CLI_TESTS)
EXTRA_DIST += $(SBX_CLI_TESTS) tests/cli/lib.sh tests/cli/interactive-echo.py

## Unit tests of the CLI's parsing and encoding helpers.
check_PROGRAMS += tests/cli/test_cli_parse
TESTS += tests/cli/test_cli_parse
tests_cli_test_cli_parse_SOURCES = tests/cli/test_cli_parse.c \
	src/cli/util.c src/cli/util.h src/cli/encode.c src/cli/encode.h
tests_cli_test_cli_parse_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(JSONC_CFLAGS)
tests_cli_test_cli_parse_LDADD = src/libsandboxio.la plugins/lib/libsbxutil.la $(CHECK_LIBS) \
	$(JSONC_LIBS)

## Unit tests of the YAML profiles reader.
check_PROGRAMS += tests/cli/test_profile
TESTS += tests/cli/test_profile
tests_cli_test_profile_SOURCES = tests/cli/test_profile.c \
	src/cli/profile.c src/cli/profile_load.c src/cli/profile.h src/cli/util.c src/cli/util.h
tests_cli_test_profile_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(JSONC_CFLAGS) $(YAML_CFLAGS)
tests_cli_test_profile_LDADD = src/libsandboxio.la $(CHECK_LIBS) $(JSONC_LIBS) $(YAML_LIBS)
