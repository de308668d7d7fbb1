# SPDX-License-Identifier: Apache-2.0
## The DSN parser's unit tests and its grammar reference (see docs/dsn.md).
check_PROGRAMS += tests/test_dsn
TESTS += tests/test_dsn
SBX_VALGRIND_TESTS += tests/test_dsn
tests_test_dsn_SOURCES = tests/test_dsn.c
tests_test_dsn_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_dsn_LDADD = src/libsandboxio.la $(CHECK_LIBS)

EXTRA_DIST += docs/dsn.md
