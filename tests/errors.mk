# SPDX-License-Identifier: Apache-2.0
## The error catalog against the error-codes.def files and docs/errors, and the man pages
## against the public headers.
check_PROGRAMS += tests/test_error_catalog
TESTS += tests/test_error_catalog
SBX_VALGRIND_TESTS += tests/test_error_catalog
tests_test_error_catalog_SOURCES = tests/test_error_catalog.c
tests_test_error_catalog_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_error_catalog_LDADD = src/libsandboxio.la $(CHECK_LIBS)

## Every man page renders without a groff warning (SKIP without groff), and
## every error code has one made from its page (docs/errors/errors.mk).
TESTS += tests/man-pages-render-without-warnings.sh tests/error-man-pages-render.sh
EXTRA_DIST += tests/man-pages-render-without-warnings.sh tests/error-man-pages-render.sh
