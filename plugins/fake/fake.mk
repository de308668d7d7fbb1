# SPDX-License-Identifier: Apache-2.0
## The fake backend: host processes in a private temp dir (tier none).
plugin_LTLIBRARIES += plugins/fake/sandboxio-fake.la
plugins_fake_sandboxio_fake_la_SOURCES = \
	plugins/fake/fake.h \
	plugins/fake/plugin.c \
	plugins/fake/sandbox.c \
	plugins/fake/spawn.c \
	plugins/fake/exec.c \
	plugins/fake/beneath.c \
	plugins/fake/files.c \
	plugins/fake/gc.c \
	plugins/fake/state.c \
	plugins/fake/named.c \
	plugins/fake/list.c
plugins_fake_sandboxio_fake_la_LIBADD = lib/libsbxu.la -lpthread
plugins_fake_sandboxio_fake_la_LDFLAGS = $(SBX_PLUGIN_LINK)

EXTRA_DIST += docs/backends/fake.md

## Unit tests: they dlopen the built module and drive it through a small
## host table of their own, so they do not depend on the core library.
FAKE_TESTS = \
	plugins/fake/tests/test_fake_exec \
	plugins/fake/tests/test_fake_files \
	plugins/fake/tests/test_fake_lifecycle \
	plugins/fake/tests/test_fake_attach
check_PROGRAMS += $(FAKE_TESTS)
TESTS += $(FAKE_TESTS)
FAKE_TEST_HARNESS = plugins/fake/tests/harness.c plugins/fake/tests/harness.h
FAKE_TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
FAKE_TEST_LDADD = lib/libsbxu.la $(CHECK_LIBS) -ldl -lpthread
plugins_fake_tests_test_fake_exec_SOURCES = plugins/fake/tests/test_fake_exec.c $(FAKE_TEST_HARNESS)
plugins_fake_tests_test_fake_exec_CFLAGS = $(FAKE_TEST_CFLAGS)
plugins_fake_tests_test_fake_exec_LDADD = $(FAKE_TEST_LDADD)
plugins_fake_tests_test_fake_files_SOURCES = plugins/fake/tests/test_fake_files.c $(FAKE_TEST_HARNESS)
plugins_fake_tests_test_fake_files_CFLAGS = $(FAKE_TEST_CFLAGS) $(SECCOMP_CFLAGS)
plugins_fake_tests_test_fake_files_LDADD = $(FAKE_TEST_LDADD) $(SECCOMP_LIBS)
plugins_fake_tests_test_fake_lifecycle_SOURCES = plugins/fake/tests/test_fake_lifecycle.c $(FAKE_TEST_HARNESS)
plugins_fake_tests_test_fake_lifecycle_CFLAGS = $(FAKE_TEST_CFLAGS)
plugins_fake_tests_test_fake_lifecycle_LDADD = $(FAKE_TEST_LDADD)
plugins_fake_tests_test_fake_attach_SOURCES = plugins/fake/tests/test_fake_attach.c $(FAKE_TEST_HARNESS)
plugins_fake_tests_test_fake_attach_CFLAGS = $(FAKE_TEST_CFLAGS)
plugins_fake_tests_test_fake_attach_LDADD = $(FAKE_TEST_LDADD)
