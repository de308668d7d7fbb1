# SPDX-License-Identifier: Apache-2.0
## plugins/lib: what backends share, as libtool convenience libraries split
## by dependency; each plugin links only the ones it uses, and since
## plugins export only their entry point nothing of these leaks.
##   libsbxutil  no external dependency: buffers, base64, credentials,
##               DSN options, endpoint URLs, owner labels and the gc
##               sweep, the in-sandbox path probe, a stdin feeder thread,
##               the create loop that never retries blindly (the CLI
##               uses its base64 too), file metadata on a host filesystem
##               and the commands that set it inside a sandbox
##   libsbxjson  json-c helpers
##   libsbxhttp  libcurl sessions with retry, redaction and the status map,
##               and the pool of them a plugin's sandboxes share
noinst_LTLIBRARIES += plugins/lib/libsbxutil.la
plugins_lib_libsbxutil_la_SOURCES = \
	plugins/lib/sbx-buf.h \
	plugins/lib/buf.c \
	plugins/lib/sbx-base64.h \
	plugins/lib/base64.c \
	plugins/lib/sbx-cred.h \
	plugins/lib/cred.c \
	plugins/lib/sbx-opts.h \
	plugins/lib/opts.c \
	plugins/lib/sbx-owner.h \
	plugins/lib/owner.c \
	plugins/lib/gc.c \
	plugins/lib/sbx-url.h \
	plugins/lib/url.c \
	plugins/lib/sbx-pathprobe.h \
	plugins/lib/pathprobe.c \
	plugins/lib/sbx-feed.h \
	plugins/lib/feed.c \
	plugins/lib/sbx-create.h \
	plugins/lib/create.c \
	plugins/lib/sbx-fsmeta.h \
	plugins/lib/fsmeta.c \
	plugins/lib/sbx-metascript.h \
	plugins/lib/metascript.c \
	plugins/lib/sbx-time.h \
	plugins/lib/rfc3339.c

if SBX_NEED_JSON_PLUGIN
noinst_LTLIBRARIES += plugins/lib/libsbxjson.la
plugins_lib_libsbxjson_la_SOURCES = \
	plugins/lib/sbx-json.h \
	plugins/lib/json.c
plugins_lib_libsbxjson_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
plugins_lib_libsbxjson_la_LIBADD = $(JSONC_LIBS)
endif

if SBX_NEED_HTTP
noinst_LTLIBRARIES += plugins/lib/libsbxhttp.la
plugins_lib_libsbxhttp_la_SOURCES = \
	plugins/lib/sbx-http.h \
	plugins/lib/http_internal.h \
	plugins/lib/http_session.c \
	plugins/lib/http_transfer.c \
	plugins/lib/http_retry.c \
	plugins/lib/http_status.c \
	plugins/lib/http_redact.c \
	plugins/lib/sbx-http-pool.h \
	plugins/lib/http_pool.c
plugins_lib_libsbxhttp_la_CFLAGS = $(AM_CFLAGS) $(CURL_CFLAGS)
## It calls libsbxutil (buffers): a plugin links both.
plugins_lib_libsbxhttp_la_LIBADD = $(CURL_LIBS) -lpthread

endif

## Tests: the HTTP session against a scripted server on 127.0.0.1, and the
## pure helpers; each where the library it tests is built.
if SBX_NEED_HTTP
check_PROGRAMS += plugins/lib/tests/test_http_retry
TESTS += plugins/lib/tests/test_http_retry
plugins_lib_tests_test_http_retry_SOURCES = plugins/lib/tests/test_http_retry.c \
	plugins/lib/tests/host.h plugins/lib/tests/loopback.h plugins/lib/tests/scripted-server.h
plugins_lib_tests_test_http_retry_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CURL_CFLAGS)
plugins_lib_tests_test_http_retry_LDADD = plugins/lib/libsbxhttp.la plugins/lib/libsbxutil.la \
	$(CHECK_LIBS) $(CURL_LIBS) -lpthread
check_PROGRAMS += plugins/lib/tests/test_http_stream
TESTS += plugins/lib/tests/test_http_stream
plugins_lib_tests_test_http_stream_SOURCES = plugins/lib/tests/test_http_stream.c \
	plugins/lib/tests/host.h plugins/lib/tests/loopback.h plugins/lib/tests/scripted-server.h
plugins_lib_tests_test_http_stream_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CURL_CFLAGS)
plugins_lib_tests_test_http_stream_LDADD = plugins/lib/libsbxhttp.la plugins/lib/libsbxutil.la \
	$(CHECK_LIBS) $(CURL_LIBS) -lpthread
check_PROGRAMS += plugins/lib/tests/test_http_pool
TESTS += plugins/lib/tests/test_http_pool
plugins_lib_tests_test_http_pool_SOURCES = plugins/lib/tests/test_http_pool.c \
	plugins/lib/tests/host.h plugins/lib/tests/loopback.h
plugins_lib_tests_test_http_pool_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CURL_CFLAGS)
plugins_lib_tests_test_http_pool_LDADD = plugins/lib/libsbxhttp.la plugins/lib/libsbxutil.la \
	$(CHECK_LIBS) $(CURL_LIBS) -lpthread
endif
if SBX_NEED_JSON_PLUGIN
check_PROGRAMS += plugins/lib/tests/test_lib_units
TESTS += plugins/lib/tests/test_lib_units
plugins_lib_tests_test_lib_units_SOURCES = plugins/lib/tests/test_lib_units.c \
	plugins/lib/tests/host.h
plugins_lib_tests_test_lib_units_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(JSONC_CFLAGS)
plugins_lib_tests_test_lib_units_LDADD = plugins/lib/libsbxjson.la plugins/lib/libsbxutil.la \
	$(CHECK_LIBS) $(JSONC_LIBS)
endif

## The cloud backends' tests share the shell side of their rigs' control endpoints.
EXTRA_DIST += plugins/lib/tests/rig-control.sh plugins/lib/tests/real-contract.sh \
	plugins/lib/tests/passes-contract.sh
