# SPDX-License-Identifier: Apache-2.0
## (fragment: see Makefile.am)
## sandboxio: the command-line tool. The program every command starts links
## only what every command needs (libc, libsandboxio, json-c, libltdl); what
## only some commands need is a part of $(pkglibexecdir) (src/cli/parts.h,
## docs/performance.md "A lean start"), and tests/gates/perf-objects.sh
## holds the program to its budget of shared objects.
##
## The code the commands share, linked into the program and its parts.
noinst_LTLIBRARIES += src/cli/libsbxcli.la
src_cli_libsbxcli_la_SOURCES = \
	src/cli/commands.h \
	src/cli/common/dsn.c \
	src/cli/common/dsn.h \
	src/cli/common/error.c \
	src/cli/common/error.h \
	src/cli/common/options.c \
	src/cli/common/options.h \
	src/cli/common/output.c \
	src/cli/common/output.h \
	src/cli/common/parse.c \
	src/cli/common/parse.h \
	src/cli/common/policy_opts.c \
	src/cli/common/policy_opts.h \
	src/cli/common/result_json.c \
	src/cli/common/result_json.h \
	src/cli/encode.c \
	src/cli/encode.h \
	src/cli/error-codes.def \
	src/cli/error-codes.h \
	src/cli/interrupt.c \
	src/cli/interrupt.h \
	src/cli/parts.c \
	src/cli/parts.h \
	src/cli/plugin_report.c \
	src/cli/plugin_report.h \
	src/cli/profile.h \
	src/cli/profile_load.c \
	src/cli/profile_parse.c \
	src/cli/profile_safe.c \
	src/cli/profile_set.c \
	src/cli/run.h \
	src/cli/run_options.c \
	src/cli/run_output.c \
	src/cli/run_ready.c \
	src/cli/run_ready.h \
	src/cli/run_tty.c \
	src/cli/run_tty.h \
	src/cli/sandbox_ref.c \
	src/cli/sandbox_ref.h
src_cli_libsbxcli_la_CPPFLAGS = $(AM_CPPFLAGS) -DSBX_CLI_PARTDIR='"$(pkglibexecdir)"'
src_cli_libsbxcli_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
SBX_CLI_LDADD = src/cli/libsbxcli.la src/libsandboxio.la lib/libsbxu.la $(JSONC_LIBS) \
	$(LIBLTDL)

bin_PROGRAMS += src/sandboxio
src_sandboxio_SOURCES = \
	src/cli/main.c \
	src/cli/cmd_completion.c \
	src/cli/cmd_demo.c \
	src/cli/cmd_create.c \
	src/cli/cmd_exec.c \
	src/cli/cmd_files.c \
	src/cli/cmd_manage.c \
	src/cli/cmd_ps.c \
	src/cli/cmd_doctor.c \
	src/cli/cmd_gc.c \
	src/cli/cmd_plugins.c \
	src/cli/cmd_profiles.c \
	src/cli/cmd_run.c \
	src/cli/cmd_shell.c \
	src/cli/cmd_version.c \
	src/cli/doctor_enforce.c \
	src/cli/doctor_install.c \
	src/cli/doctor_install.h \
	src/cli/doctor_online.c \
	src/cli/doctor_online.h \
	src/cli/doctor_probe.c \
	src/cli/doctor_probe.h
src_sandboxio_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
## Every command builds whichever backends are enabled: they reach backends
## only through the library, so one left out is a plugin not found at run
## time (`sandboxio contract docker://` says so), never a missing symbol.
src_sandboxio_LDADD = $(SBX_CLI_LDADD)

## The executable parts: one command each, started by `sandboxio` (main.c).
EXTRA_DIST += src/cli/part_main.c
sbx_part_cppflags = $(AM_CPPFLAGS)

## `cp`: with "-", tar streams through libarchive, where it was looked for.
pkglibexec_PROGRAMS += src/sandboxio-cp
src_sandboxio_cp_SOURCES = src/cli/part_main.c src/cli/cmd_cp.c src/cli/cp_copy.c src/cli/cp_out.c src/cli/cp.h
if SBX_HAVE_ARCHIVE
src_sandboxio_cp_SOURCES += src/cli/cp_tar.c
else
src_sandboxio_cp_SOURCES += src/cli/cp_tar_none.c
endif
src_sandboxio_cp_CPPFLAGS = $(sbx_part_cppflags) -DSBX_PART_CMD=cmd_cp -DSBX_PART_NAME='"cp"'
src_sandboxio_cp_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) $(ARCHIVE_CFLAGS)
src_sandboxio_cp_LDADD = $(SBX_CLI_LDADD) $(ARCHIVE_LIBS)

## `contract`: the suite linked in from contract/.
pkglibexec_PROGRAMS += src/sandboxio-contract
src_sandboxio_contract_SOURCES = src/cli/part_main.c src/cli/cmd_contract.c
## contract.h: the suite's interface, from its own directory.
src_sandboxio_contract_CPPFLAGS = $(sbx_part_cppflags) -I$(top_srcdir)/contract \
	-DSBX_PART_CMD=cmd_contract -DSBX_PART_NAME='"contract"'
src_sandboxio_contract_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
src_sandboxio_contract_LDADD = contract/libsbxcontract.la $(SBX_CLI_LDADD)

## The YAML profiles reader: a module (libltdl), opened by profile_parse.c
## when a profiles file is read. Its .la is removed at install, like a plugin's.
sbxpartdir = $(pkglibexecdir)
sbxpart_LTLIBRARIES = src/sandboxio-yaml.la
src_sandboxio_yaml_la_SOURCES = src/cli/profile.c src/cli/profile.h src/cli/profile_set.c \
	src/cli/common/parse.c src/cli/common/parse.h
src_sandboxio_yaml_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) $(YAML_CFLAGS)
src_sandboxio_yaml_la_LDFLAGS = -module -avoid-version -shared -no-undefined \
	-export-symbols-regex '^profile_set_parse_yaml$$' $(SAN_LDFLAGS)
src_sandboxio_yaml_la_LIBADD = src/libsandboxio.la $(JSONC_LIBS) $(YAML_LIBS)

dist_man_MANS += docs/man/sandboxio.1

## Shell completion: made by the built program from its command table
## (`sandboxio completion SHELL`), installed where bash-completion and zsh
## look for them.
bashcompletiondir = $(datadir)/bash-completion/completions
bashcompletion_DATA = completions/bash/sandboxio
zshcompletiondir = $(datadir)/zsh/site-functions
zshcompletion_DATA = completions/zsh/_sandboxio
CLEANFILES += $(bashcompletion_DATA) $(zshcompletion_DATA)
completions/bash/sandboxio: src/sandboxio$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) completions/bash && \
	src/sandboxio$(EXEEXT) completion bash >$@.tmp && mv $@.tmp $@
completions/zsh/_sandboxio: src/sandboxio$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) completions/zsh && \
	src/sandboxio$(EXEEXT) completion zsh >$@.tmp && mv $@.tmp $@
dist_doc_DATA += docs/cli.md docs/profiles.md

## Shell tests of the CLI against the fake backend.
SBX_CLI_TESTS = \
	tests/cli/run-network-open-prints-output.sh \
	tests/cli/run-environment-not-inherited.sh \
	tests/cli/run-sets-home-to-work-dir.sh \
	tests/cli/run-cwd-made-when-missing.sh \
	tests/cli/run-default-network-refused-on-fake.sh \
	tests/cli/run-exit-status-passthrough.sh \
	tests/cli/run-missing-program-exits-127-unexecutable-126.sh \
	tests/cli/run-timeout-exits-124.sh \
	tests/cli/run-interrupt-destroys-sandbox.sh \
	tests/cli/run-interrupt-stops-silent-command.sh \
	tests/cli/run-closed-stdout-stops-command.sh \
	tests/cli/run-policy-reaches-backend.sh \
	tests/cli/run-json-output.sh \
	tests/cli/json-on-every-result-command.sh \
	tests/cli/run-rm-accepted-as-noop.sh \
	tests/cli/run-bad-input-exit-codes.sh \
	tests/cli/plugins-json-lists-fake.sh \
	tests/cli/plugins-marks-caps-not-enforceable-here.sh \
	tests/cli/doctor-json-no-secrets.sh \
	tests/cli/doctor-opens-no-socket.sh \
	tests/cli/doctor-names-library-loaded.sh \
	tests/cli/help-and-usage-errors.sh \
	tests/cli/completion-lists-every-command.sh \
	tests/cli/usage-errors-suggest-nearest.sh \
	tests/cli/run-profile-reaches-backend.sh \
	tests/cli/profiles-list-and-check.sh \
	tests/cli/profiles-writable-by-others-refused.sh \
	tests/cli/run-interactive-stdin-streams.sh \
	tests/cli/doctor-online-contacts-backends.sh \
	tests/cli/shell-options-and-refusals.sh \
	tests/cli/demo-prints-and-runs-each-step.sh \
	tests/cli/contract-and-demo-take-profile.sh \
	tests/cli/session-create-cp-exec-ps-kill.sh \
	tests/cli/ids-prefix-unique-or-refused.sh \
	tests/cli/create-ttl-ends-sandbox.sh \
	tests/cli/create-takes-profile-ttl.sh \
	tests/cli/create-bad-input-exit-codes.sh \
	tests/cli/cp-tar-streams.sh \
	tests/cli/exec-tty-refused-without-pty.sh \
	tests/cli/exec-piped-stdin-streams.sh \
	tests/cli/tty-refused-without-terminal.sh \
	tests/cli/ps-quiet-about-unreachable-backends.sh \
	tests/cli/cp-keeps-modes-mtimes-links.sh \
	tests/cli/exec-tty-refused-without-pty.sh \
	tests/cli/empty-sandboxio-dsn-means-unset.sh
TESTS += $(SBX_CLI_TESTS)
EXTRA_DIST += $(SBX_CLI_TESTS) tests/cli/lib.sh tests/cli/interactive-echo.py

## Unit tests of the CLI's parsing and encoding helpers.
check_PROGRAMS += tests/cli/test_cli_parse
TESTS += tests/cli/test_cli_parse
tests_cli_test_cli_parse_SOURCES = tests/cli/test_cli_parse.c \
	src/cli/common/error.c src/cli/common/error.h src/cli/common/parse.c src/cli/common/parse.h \
	src/cli/encode.c src/cli/encode.h
tests_cli_test_cli_parse_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(JSONC_CFLAGS)
tests_cli_test_cli_parse_LDADD = src/libsandboxio.la lib/libsbxu.la $(CHECK_LIBS) \
	$(JSONC_LIBS)

## Unit tests of the YAML profiles reader.
check_PROGRAMS += tests/cli/test_profile
TESTS += tests/cli/test_profile
tests_cli_test_profile_SOURCES = tests/cli/test_profile.c tests/cli/profile_direct.c \
	src/cli/profile.c src/cli/profile_set.c src/cli/profile_load.c src/cli/profile_safe.c \
	src/cli/profile.h \
	src/cli/common/error.c src/cli/common/error.h src/cli/common/parse.c src/cli/common/parse.h
tests_cli_test_profile_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(JSONC_CFLAGS) $(YAML_CFLAGS)
tests_cli_test_profile_LDADD = src/libsandboxio.la $(CHECK_LIBS) $(JSONC_LIBS) $(YAML_LIBS)
