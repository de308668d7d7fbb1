# SPDX-License-Identifier: Apache-2.0
## libsandboxio: the core. Links no libcurl; exports only sbx_* symbols.
lib_LTLIBRARIES += src/libsandboxio.la
src_libsandboxio_la_SOURCES = \
	src/core/alloc.c \
	src/core/cancel.c \
	src/core/caps.c \
	src/core/client.c \
	src/core/dsn.c \
	src/core/dsn_print.c \
	src/core/error.c \
	src/core/error_catalog.c \
	src/core/cmd.c \
	src/core/exec.c \
	src/core/exec_internal.h \
	src/core/files.c \
	src/core/internal.h \
	src/core/lifecycle.c \
	src/core/lifecycle_ops.c \
	src/core/loader.c \
	src/core/path.c \
	src/core/plugin_package.c \
	src/core/policy.c \
	src/core/policy_store.c \
	src/core/pool.c \
	src/core/result.c \
	src/core/sandbox.c \
	src/core/strvec.c \
	src/cli/error-codes.def
## lib/'s clocks, compiled in (hidden, as every non-sbx_ symbol): the core
## links none of lib/'s convenience libraries, which would bring all of it.
src_libsandboxio_la_SOURCES += lib/sbxu/clock.h lib/clock.c
src_libsandboxio_la_CPPFLAGS = $(AM_CPPFLAGS) -DSBX_BUILDING_LIBRARY
src_libsandboxio_la_LIBADD = $(LIBLTDL) -lpthread
src_libsandboxio_la_LDFLAGS = $(AM_LDFLAGS) -no-undefined \
	-version-info $(SBX_LT_VERSION) -export-symbols-regex '^sbx_'
