# SPDX-License-Identifier: Apache-2.0
## The core's own tests, and the test plugin they drive.
check_LTLIBRARIES += tests/plugins/sandboxio-testcaps.la
tests_plugins_sandboxio_testcaps_la_SOURCES = tests/plugins/testcaps.c
## -rpath makes libtool build a shared module that is never installed.
tests_plugins_sandboxio_testcaps_la_LDFLAGS = $(SBX_PLUGIN_LINK) -rpath /nowhere

SBX_CHECK_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
SBX_CHECK_LDADD = src/libsandboxio.la $(CHECK_LIBS)

check_PROGRAMS += tests/test_policy tests/test_sandbox_api tests/test_exec_opts tests/test_cancel \
	tests/test_lifecycle
TESTS += tests/test_policy tests/test_sandbox_api tests/test_exec_opts tests/test_cancel tests/test_lifecycle
SBX_VALGRIND_TESTS += tests/test_policy tests/test_sandbox_api tests/test_exec_opts tests/test_lifecycle
tests_test_policy_SOURCES = tests/test_policy.c tests/testutil.h
tests_test_policy_CFLAGS = $(SBX_CHECK_CFLAGS)
tests_test_policy_LDADD = $(SBX_CHECK_LDADD)
tests_test_sandbox_api_SOURCES = tests/test_sandbox_api.c tests/testutil.h
tests_test_sandbox_api_CFLAGS = $(SBX_CHECK_CFLAGS)
tests_test_sandbox_api_LDADD = $(SBX_CHECK_LDADD)
tests_test_lifecycle_SOURCES = tests/test_lifecycle.c tests/testutil.h
tests_test_lifecycle_CFLAGS = $(SBX_CHECK_CFLAGS)
tests_test_lifecycle_LDADD = $(SBX_CHECK_LDADD)
tests_test_exec_opts_SOURCES = tests/test_exec_opts.c tests/testutil.h
tests_test_exec_opts_CFLAGS = $(SBX_CHECK_CFLAGS)
tests_test_exec_opts_LDADD = $(SBX_CHECK_LDADD)
tests_test_cancel_SOURCES = tests/test_cancel.c tests/testutil.h
tests_test_cancel_CFLAGS = $(SBX_CHECK_CFLAGS) -pthread
tests_test_cancel_LDADD = $(SBX_CHECK_LDADD) -lpthread

## Threads add plugin directories while others list: the documented thread
## safety of a client (run it under helgrind or TSan to see a race).
check_PROGRAMS += tests/test_plugin_dirs_threads
TESTS += tests/test_plugin_dirs_threads
SBX_VALGRIND_TESTS += tests/test_plugin_dirs_threads
SBX_HELGRIND_TESTS += tests/test_plugin_dirs_threads
tests_test_plugin_dirs_threads_SOURCES = tests/test_plugin_dirs_threads.c tests/testutil.h
tests_test_plugin_dirs_threads_CFLAGS = $(SBX_CHECK_CFLAGS) -pthread
tests_test_plugin_dirs_threads_LDADD = $(SBX_CHECK_LDADD) -lpthread

## A missing plugin names its package (configure --with-plugin-package): the
## hidden substitution is compiled in beside the library.
check_PROGRAMS += tests/test_plugin_package
TESTS += tests/test_plugin_package
tests_test_plugin_package_SOURCES = tests/test_plugin_package.c tests/testutil.h \
	src/core/plugin_package.c
tests_test_plugin_package_CFLAGS = $(SBX_CHECK_CFLAGS)
tests_test_plugin_package_LDADD = $(SBX_CHECK_LDADD)

## The out-of-tree example plugin builds with its own Makefile and passes the
## contract suite.
TESTS += tests/plugin-hello-passes-contract.sh
EXTRA_DIST += tests/plugin-hello-passes-contract.sh \
	examples/plugin-hello/Makefile examples/plugin-hello/hello.c \
	docs/packaging.md

## The out-of-tree REST example builds against the installed plugin kit
## (this tree installed into a staging directory) and passes the contract
## suite against the service double it ships; where the kit is built
## (kit/kit.mk: libcurl and json-c found).
if SBX_NEED_HTTP
if SBX_NEED_JSON_PLUGIN
TESTS += tests/plugin-rest-passes-contract.sh
endif
endif
EXTRA_DIST += tests/plugin-rest-passes-contract.sh \
	examples/plugin-rest/Makefile examples/plugin-rest/README.md \
	examples/plugin-rest/restdemo.h examples/plugin-rest/plugin.c \
	examples/plugin-rest/api.c examples/plugin-rest/exec.c \
	examples/plugin-rest/files.c examples/plugin-rest/gc.c \
	examples/plugin-rest/restdemo-double.py

## Shared by the tests that interrupt a run (CLI, local, docker).
EXTRA_DIST += tests/interrupt-lib.sh
## What the terminal tests (local, docker) share: a tmux session to drive.
EXTRA_DIST += tests/tty-lib.sh tests/tty-term.sh

## The shape of the shared library itself.
TESTS += tests/library-exports-only-sbx-symbols.sh
EXTRA_DIST += tests/library-exports-only-sbx-symbols.sh

## doctor's report of the libsandboxio file loaded and of every install of
## the library (src/cli/doctor_install.c, compiled in from the CLI).
check_PROGRAMS += tests/test_doctor_install
TESTS += tests/test_doctor_install
tests_test_doctor_install_SOURCES = tests/test_doctor_install.c src/cli/doctor_install.c
tests_test_doctor_install_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/cli
tests_test_doctor_install_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_doctor_install_LDADD = src/libsandboxio.la $(CHECK_LIBS)

## sandboxio-plugin(7) shows every member of the plugin descriptor.
TESTS += tests/plugin-man-page-shows-every-member.sh
EXTRA_DIST += tests/plugin-man-page-shows-every-member.sh
