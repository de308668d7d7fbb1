# SPDX-License-Identifier: Apache-2.0
## The loader's tests: deliberately broken plugins (tests/plugins/broken.c,
## one defect chosen per build), each alone in its own directory so that SANDBOXIO_PLUGIN_PATH can name one defect at a time
## (libtool puts the module in <dir>/.libs/), and the no-socket check.
## The modules are never installed (-rpath /nowhere only makes them shared).

SBX_BROKEN_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -shared -rpath /nowhere

check_LTLIBRARIES += tests/plugins/noentry/sandboxio-noentry.la
tests_plugins_noentry_sandboxio_noentry_la_SOURCES = tests/plugins/broken.c
tests_plugins_noentry_sandboxio_noentry_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"noentry"' -DBROKEN_NO_ENTRY
tests_plugins_noentry_sandboxio_noentry_la_LDFLAGS = $(SBX_BROKEN_LDFLAGS)

check_LTLIBRARIES += tests/plugins/abiv2/sandboxio-abiv2.la
tests_plugins_abiv2_sandboxio_abiv2_la_SOURCES = tests/plugins/broken.c
tests_plugins_abiv2_sandboxio_abiv2_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"abiv2"' -DBROKEN_V2_ONLY
tests_plugins_abiv2_sandboxio_abiv2_la_LDFLAGS = $(SBX_BROKEN_LDFLAGS)

check_LTLIBRARIES += tests/plugins/abimajor/sandboxio-abimajor.la
tests_plugins_abimajor_sandboxio_abimajor_la_SOURCES = tests/plugins/broken.c
tests_plugins_abimajor_sandboxio_abimajor_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"abimajor"' -DBROKEN_ABI_MAJOR
tests_plugins_abimajor_sandboxio_abimajor_la_LDFLAGS = $(SBX_BROKEN_LDFLAGS)

check_LTLIBRARIES += tests/plugins/nulldesc/sandboxio-nulldesc.la
tests_plugins_nulldesc_sandboxio_nulldesc_la_SOURCES = tests/plugins/broken.c
tests_plugins_nulldesc_sandboxio_nulldesc_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"nulldesc"' -DBROKEN_NULL_DESCRIPTOR
tests_plugins_nulldesc_sandboxio_nulldesc_la_LDFLAGS = $(SBX_BROKEN_LDFLAGS)

check_LTLIBRARIES += tests/plugins/shortdesc/sandboxio-shortdesc.la
tests_plugins_shortdesc_sandboxio_shortdesc_la_SOURCES = tests/plugins/broken.c
tests_plugins_shortdesc_sandboxio_shortdesc_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"shortdesc"' -DBROKEN_SHORT_DESCRIPTOR
tests_plugins_shortdesc_sandboxio_shortdesc_la_LDFLAGS = $(SBX_BROKEN_LDFLAGS)

check_LTLIBRARIES += tests/plugins/initfail/sandboxio-initfail.la
tests_plugins_initfail_sandboxio_initfail_la_SOURCES = tests/plugins/broken.c
tests_plugins_initfail_sandboxio_initfail_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"initfail"' -DBROKEN_INIT_FAILS
tests_plugins_initfail_sandboxio_initfail_la_LDFLAGS = $(SBX_BROKEN_LDFLAGS)

check_LTLIBRARIES += tests/plugins/abiminor/sandboxio-abiminor.la
tests_plugins_abiminor_sandboxio_abiminor_la_SOURCES = tests/plugins/broken.c
tests_plugins_abiminor_sandboxio_abiminor_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"abiminor"' -DBROKEN_ABI_MINOR
tests_plugins_abiminor_sandboxio_abiminor_la_LDFLAGS = $(SBX_BROKEN_LDFLAGS)

check_LTLIBRARIES += tests/plugins/misnamed/sandboxio-misnamed.la
tests_plugins_misnamed_sandboxio_misnamed_la_SOURCES = tests/plugins/broken.c
tests_plugins_misnamed_sandboxio_misnamed_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"misnamed"' -DBROKEN_NAME
tests_plugins_misnamed_sandboxio_misnamed_la_LDFLAGS = $(SBX_BROKEN_LDFLAGS)

check_LTLIBRARIES += tests/plugins/noopen/sandboxio-noopen.la
tests_plugins_noopen_sandboxio_noopen_la_SOURCES = tests/plugins/broken.c
tests_plugins_noopen_sandboxio_noopen_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"noopen"' -DBROKEN_NO_OPEN
tests_plugins_noopen_sandboxio_noopen_la_LDFLAGS = $(SBX_BROKEN_LDFLAGS)

check_LTLIBRARIES += tests/plugins/nodestroy/sandboxio-nodestroy.la
tests_plugins_nodestroy_sandboxio_nodestroy_la_SOURCES = tests/plugins/broken.c
tests_plugins_nodestroy_sandboxio_nodestroy_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"nodestroy"' -DBROKEN_NO_DESTROY
tests_plugins_nodestroy_sandboxio_nodestroy_la_LDFLAGS = $(SBX_BROKEN_LDFLAGS)

check_LTLIBRARIES += tests/plugins/badtier/sandboxio-badtier.la
tests_plugins_badtier_sandboxio_badtier_la_SOURCES = tests/plugins/broken.c
tests_plugins_badtier_sandboxio_badtier_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"badtier"' -DBROKEN_TIER
tests_plugins_badtier_sandboxio_badtier_la_LDFLAGS = $(SBX_BROKEN_LDFLAGS)

check_LTLIBRARIES += tests/plugins/socketinit/sandboxio-socketinit.la
tests_plugins_socketinit_sandboxio_socketinit_la_SOURCES = tests/plugins/broken.c
tests_plugins_socketinit_sandboxio_socketinit_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"socketinit"' -DBROKEN_SOCKET_IN_INIT
tests_plugins_socketinit_sandboxio_socketinit_la_LDFLAGS = $(SBX_BROKEN_LDFLAGS)

## Two good ones: built before plugin ABI 1.4 (a descriptor that ends
## before credential_env), and one that names its credential variables.
check_LTLIBRARIES += tests/plugins/oldminor/sandboxio-oldminor.la
tests_plugins_oldminor_sandboxio_oldminor_la_SOURCES = tests/plugins/broken.c
tests_plugins_oldminor_sandboxio_oldminor_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"oldminor"' -DOLD_MINOR_3
tests_plugins_oldminor_sandboxio_oldminor_la_LDFLAGS = $(SBX_BROKEN_LDFLAGS)

check_LTLIBRARIES += tests/plugins/namescreds/sandboxio-namescreds.la
tests_plugins_namescreds_sandboxio_namescreds_la_SOURCES = tests/plugins/broken.c
tests_plugins_namescreds_sandboxio_namescreds_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"namescreds"' -DNAMES_CREDENTIALS
tests_plugins_namescreds_sandboxio_namescreds_la_LDFLAGS = $(SBX_BROKEN_LDFLAGS)

## Every broken plugin above refused with its own code; the fake still works.
check_PROGRAMS += tests/loader/test_loader_broken
TESTS += tests/loader/test_loader_broken
tests_loader_test_loader_broken_SOURCES = tests/loader/test_loader_broken.c
tests_loader_test_loader_broken_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_loader_test_loader_broken_LDADD = src/libsandboxio.la $(CHECK_LIBS) -ldl

## Runs a program under a seccomp filter that kills it on socket(2) or
## connect(2). The filter is libseccomp's: a build without it (possible
## only with the local backend left out) does not build this test.
SBX_LOADER_TESTS = tests/loader/listing-plugins-opens-no-socket.sh
EXTRA_DIST += $(SBX_LOADER_TESTS)
if SBX_HAVE_SECCOMP
check_PROGRAMS += tests/loader/no-socket-exec tests/loader/list-plugins
tests_loader_no_socket_exec_SOURCES = tests/loader/no-socket-exec.c
tests_loader_no_socket_exec_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS)
tests_loader_no_socket_exec_LDADD = $(SECCOMP_LIBS)
## Loads and describes every plugin through the library alone.
tests_loader_list_plugins_SOURCES = tests/loader/list-plugins.c
tests_loader_list_plugins_LDADD = src/libsandboxio.la
TESTS += $(SBX_LOADER_TESTS)
endif
