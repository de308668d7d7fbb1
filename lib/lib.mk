# SPDX-License-Identifier: Apache-2.0
## lib/: what backends share, as libtool convenience libraries split
## by dependency; each plugin links only the ones it uses, and since
## plugins export only their entry point nothing of these leaks.
##   libsbxu  no external dependency: buffers, base64, credentials,
##               DSN options, endpoint URLs, owner labels and the gc
##               sweep, the in-sandbox path probe, a stdin feeder thread,
##               the create loop that never retries blindly (the CLI
##               uses its base64 too), file metadata on a host filesystem
##               and the commands that set it inside a sandbox, the
##               monotonic and the wall clock, an exec errno as
##               its SBX code, writing a buffer whole and replacing a
##               small file
##   libsbxu-json  json-c helpers
##   libsbxu-curl  libcurl sessions with retry, redaction and the status map,
##               and the pool of them a plugin's sandboxes share
##   libsbxu-remote the remote-backend kit (needs the two above): plugin
##               state, control-plane calls with error rules as tables,
##               create, delete, gc, ping and file operations
noinst_LTLIBRARIES += lib/libsbxu.la
lib_libsbxu_la_SOURCES = \
	lib/sbxu/buf.h \
	lib/sbxu/frame.h \
	lib/buf.c \
	lib/sbxu/base64.h \
	lib/base64.c \
	lib/sbxu/cred.h \
	lib/cred.c \
	lib/sbxu/opts.h \
	lib/opts.c \
	lib/sbxu/owner.h \
	lib/owner.c \
	lib/gc.c \
	lib/sbxu/url.h \
	lib/url.c \
	lib/sbxu/pathprobe.h \
	lib/pathprobe.c \
	lib/sbxu/feed.h \
	lib/feed.c \
	lib/sbxu/create.h \
	lib/create.c \
	lib/sbxu/fsmeta.h \
	lib/fsmeta.c \
	lib/sbxu/metascript.h \
	lib/metascript.c \
	lib/sbxu/time.h \
	lib/rfc3339.c \
	lib/sbxu/clock.h \
	lib/clock.c \
	lib/sbxu/exec_start.h \
	lib/exec_start.c \
	lib/sbxu/file.h \
	lib/file.c

if SBX_NEED_JSON_PLUGIN
noinst_LTLIBRARIES += lib/libsbxu-json.la
lib_libsbxu_json_la_SOURCES = \
	lib/sbxu/json.h \
	lib/json.c
lib_libsbxu_json_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
lib_libsbxu_json_la_LIBADD = $(JSONC_LIBS)
endif

if SBX_NEED_HTTP
noinst_LTLIBRARIES += lib/libsbxu-curl.la
lib_libsbxu_curl_la_SOURCES = \
	lib/sbxu/http.h \
	lib/http_internal.h \
	lib/http_session.c \
	lib/http_transfer.c \
	lib/http_retry.c \
	lib/http_status.c \
	lib/http_redact.c \
	lib/sbxu/http_pool.h \
	lib/http_pool.c
lib_libsbxu_curl_la_CFLAGS = $(AM_CFLAGS) $(CURL_CFLAGS)
## It calls libsbxu (buffers): a plugin links both.
lib_libsbxu_curl_la_LIBADD = $(CURL_LIBS) -lpthread

## The remote-backend kit (sbxu/remote.h): what cloud backends share on top
## of the HTTP and JSON helpers; a plugin links it before those.
noinst_LTLIBRARIES += lib/libsbxu-remote.la
lib_libsbxu_remote_la_SOURCES = lib/sbxu/remote.h \
	lib/remote_plugin.c lib/remote_api.c lib/remote_sandbox.c \
	lib/remote_gc.c lib/remote_files.c lib/remote_util.c
lib_libsbxu_remote_la_CFLAGS = $(AM_CFLAGS) $(CURL_CFLAGS) $(JSONC_CFLAGS)
endif

## Tests: the HTTP session against a scripted server on 127.0.0.1, and the
## pure helpers; each where the library it tests is built.
check_PROGRAMS += lib/tests/test_lib_base
TESTS += lib/tests/test_lib_base
SBX_VALGRIND_TESTS += lib/tests/test_lib_base
lib_tests_test_lib_base_SOURCES = lib/tests/test_lib_base.c lib/tests/run-suite.h
lib_tests_test_lib_base_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
lib_tests_test_lib_base_LDADD = lib/libsbxu.la $(CHECK_LIBS)
if SBX_NEED_HTTP
check_PROGRAMS += lib/tests/test_http_retry
TESTS += lib/tests/test_http_retry
SBX_VALGRIND_TESTS += lib/tests/test_http_retry
lib_tests_test_http_retry_SOURCES = lib/tests/test_http_retry.c \
	lib/tests/host.h lib/tests/loopback.h lib/tests/scripted-server.h
lib_tests_test_http_retry_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CURL_CFLAGS)
lib_tests_test_http_retry_LDADD = lib/libsbxu-curl.la lib/libsbxu.la \
	$(CHECK_LIBS) $(CURL_LIBS) -lpthread
check_PROGRAMS += lib/tests/test_http_stream
TESTS += lib/tests/test_http_stream
SBX_VALGRIND_TESTS += lib/tests/test_http_stream
lib_tests_test_http_stream_SOURCES = lib/tests/test_http_stream.c \
	lib/tests/host.h lib/tests/loopback.h lib/tests/scripted-server.h
lib_tests_test_http_stream_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CURL_CFLAGS)
lib_tests_test_http_stream_LDADD = lib/libsbxu-curl.la lib/libsbxu.la \
	$(CHECK_LIBS) $(CURL_LIBS) -lpthread
check_PROGRAMS += lib/tests/test_http_pool
TESTS += lib/tests/test_http_pool
SBX_VALGRIND_TESTS += lib/tests/test_http_pool
lib_tests_test_http_pool_SOURCES = lib/tests/test_http_pool.c \
	lib/tests/host.h lib/tests/loopback.h
lib_tests_test_http_pool_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CURL_CFLAGS)
lib_tests_test_http_pool_LDADD = lib/libsbxu-curl.la lib/libsbxu.la \
	$(CHECK_LIBS) $(CURL_LIBS) -lpthread
endif
if SBX_NEED_JSON_PLUGIN
check_PROGRAMS += lib/tests/test_lib_units
TESTS += lib/tests/test_lib_units
SBX_VALGRIND_TESTS += lib/tests/test_lib_units
lib_tests_test_lib_units_SOURCES = lib/tests/test_lib_units.c \
	lib/tests/host.h
lib_tests_test_lib_units_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(JSONC_CFLAGS)
lib_tests_test_lib_units_LDADD = lib/libsbxu-json.la lib/libsbxu.la \
	$(CHECK_LIBS) $(JSONC_LIBS)
endif

## The cloud backends' tests share their REST rig (the shell side, the
## doubles' base, the control endpoints) and tests run the same way.
EXTRA_DIST += lib/tests/rig-control.sh lib/tests/real-contract.sh \
	lib/tests/passes-contract.sh lib/tests/rest-rig.sh \
	lib/tests/gc-removes-leaked.sh lib/tests/rest-client.js \
	lib/tests/doubles/rest-double.js

## The backends on the remote kit whose tests use that rig.
SBXU_REMOTE_BACKENDS = e2b daytona

## The official SDKs' sessions prove the doubles, not this project's C
## code; the wire surfaces are what the adapters' code sends, the same in
## every build, and their tests run the whole contract suite again to record
## it: the normal build's run is the one that counts. A sanitizer build has
## nothing to add to either.
if !SANITIZERS
TESTS += $(SBX_E2B_SDK_TESTS) $(SBX_E2B_SURFACE_TESTS) \
	$(SBX_DAYTONA_SDK_TESTS) $(SBX_DAYTONA_SURFACE_TESTS)
endif

## The date of the specs a backend is built against: the newest date of a
## stored copy in its spec/SOURCES, embedded in the plugin's version as
## semver build metadata (0.1.0+spec.2026-08-21), which `sandboxio doctor`
## shows (NAME_SPEC_DATE in plugins/NAME/spec-date.h).
plugins/e2b/spec-date.h: $(srcdir)/plugins/e2b/spec/SOURCES
plugins/daytona/spec-date.h: $(srcdir)/plugins/daytona/spec/SOURCES
plugins/e2b/spec-date.h plugins/daytona/spec-date.h: $(srcdir)/scripts/spec-date.sh
	$(AM_V_GEN)b=`basename $(@D)`; n=`echo $$b | tr a-z A-Z`_SPEC_DATE; \
	  $(SHELL) $(srcdir)/scripts/spec-date.sh $(srcdir)/plugins/$$b/spec/SOURCES $$n >$@.tmp && \
	  mv $@.tmp $@
BUILT_SOURCES += plugins/e2b/spec-date.h plugins/daytona/spec-date.h
CLEANFILES += plugins/e2b/spec-date.h plugins/e2b/spec-date.h.tmp \
	plugins/daytona/spec-date.h plugins/daytona/spec-date.h.tmp

## Against the real provider, with its key in the environment: never part
## of make check (it costs money and needs the network); scripts/test.sh
## runs it when the key is set. 77 (SKIP, with the reason) without one.
check-e2b-real check-daytona-real: all
	@b=$@; b=$${b#check-}; b=$${b%-real}; \
	  $(AM_TESTS_ENVIRONMENT) SANDBOXIO_PLUGIN_PATH="$(abs_top_builddir)/plugins/$$b/.libs"; \
	  export SANDBOXIO_PLUGIN_PATH; $(SHELL) $(srcdir)/plugins/$$b/tests/$$b-real-contract.sh
.PHONY: check-e2b-real check-daytona-real

## What the rigs install or leave in the build tree.
clean-local: clean-local-remote
clean-local-remote:
	-for b in $(SBXU_REMOTE_BACKENDS); do \
	  rm -rf plugins/$$b/tests/doubles/node_modules plugins/$$b/tests/npm-ci.lock \
	    plugins/$$b/tests/doubles/npm-ci.log; \
	  test "$(abs_srcdir)" = "$(abs_builddir)" || rm -rf plugins/$$b/tests/doubles plugins/$$b/spec; \
	done
	-test "$(abs_srcdir)" = "$(abs_builddir)" || rm -rf lib/tests/doubles
.PHONY: clean-local-remote
