# SPDX-License-Identifier: Apache-2.0
## The daytona backend: Daytona sandboxes through Daytona's control plane
## and the toolbox daemon in each sandbox (REST both). Its tests run against
## spec-checked doubles of both (each behind Prism), proved by the official
## @daytonaio/sdk. Node and npm are test-time dependencies only: the
## doubles' packages are installed by the tests themselves (npm ci).
## (--disable-daytona leaves the plugin out; its rig test needs only node.)
if SBX_ENABLE_DAYTONA
plugin_LTLIBRARIES += plugins/daytona/sandboxio-daytona.la
plugins_daytona_sandboxio_daytona_la_SOURCES = plugins/daytona/daytona.h plugins/daytona/plugin.c \
	plugins/daytona/endpoint.c plugins/daytona/api.c plugins/daytona/sandbox.c \
	plugins/daytona/toolbox.c plugins/daytona/quote.c plugins/daytona/exec.c \
	plugins/daytona/wrapper.c plugins/daytona/status.c plugins/daytona/files.c \
	plugins/daytona/policy.c plugins/daytona/lifecycle.c
plugins_daytona_sandboxio_daytona_la_CFLAGS = $(AM_CFLAGS) $(CURL_CFLAGS) $(JSONC_CFLAGS)
plugins_daytona_sandboxio_daytona_la_LIBADD = lib/libsbxu-remote.la lib/libsbxu-curl.la lib/libsbxu-json.la \
	lib/libsbxu.la $(CURL_LIBS) $(JSONC_LIBS) -lpthread
plugins_daytona_sandboxio_daytona_la_LDFLAGS = $(SBX_PLUGIN_LINK)
nodist_plugins_daytona_sandboxio_daytona_la_SOURCES = plugins/daytona/spec-date.h
endif

## spec-date.h, the date of the specs it is built against: lib/lib.mk.

SBX_DAYTONA_DOUBLES = plugins/daytona/tests/doubles/package.json \
	plugins/daytona/tests/doubles/package-lock.json plugins/daytona/tests/doubles/README.md \
	plugins/daytona/tests/doubles/rig.js plugins/daytona/tests/doubles/front.js \
	plugins/daytona/tests/doubles/control-plane.js plugins/daytona/tests/doubles/toolbox.js \
	plugins/daytona/tests/doubles/toolbox-spec.js plugins/daytona/tests/doubles/sessions.js \
	plugins/daytona/tests/doubles/files.js plugins/daytona/tests/doubles/sandbox.js \
	plugins/daytona/tests/doubles/paths.js plugins/daytona/tests/doubles/faults.js \
	plugins/daytona/tests/doubles/rig-selfcheck.js plugins/daytona/tests/doubles/sdk-session.js
SBX_DAYTONA_SPEC = plugins/daytona/spec/SOURCES plugins/daytona/spec/api-openapi.yaml \
	plugins/daytona/spec/toolbox-openapi.yaml

## Unit tests of the backend's pure parts (no server needed).
## They need the toolkit's JSON helpers, built only where a plugin uses them.
if SBX_NEED_JSON_PLUGIN
check_PROGRAMS += plugins/daytona/tests/test_daytona_units
TESTS += plugins/daytona/tests/test_daytona_units
plugins_daytona_tests_test_daytona_units_SOURCES = plugins/daytona/tests/test_daytona_units.c \
	plugins/daytona/daytona.h plugins/daytona/logdemux.c plugins/daytona/policy.c \
	plugins/daytona/lifecycle.c plugins/daytona/endpoint.c plugins/daytona/quote.c \
	plugins/daytona/wrapper.c plugins/daytona/status.c
plugins_daytona_tests_test_daytona_units_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(JSONC_CFLAGS) $(CURL_CFLAGS)
plugins_daytona_tests_test_daytona_units_LDADD = lib/libsbxu-json.la lib/libsbxu.la $(CHECK_LIBS) $(JSONC_LIBS)
endif

## The tests against the rig; the SDK session and the wire surface (whose
## test runs the whole contract suite again to record it) outside
## sanitizer builds: lib/lib.mk.
SBX_DAYTONA_SDK_TESTS = plugins/daytona/tests/daytona-sdk-session-passes.sh
if SBX_ENABLE_DAYTONA
SBX_DAYTONA_TESTS = plugins/daytona/tests/daytona-passes-contract.sh \
	plugins/daytona/tests/daytona-create-request-per-policy.sh \
	plugins/daytona/tests/daytona-faults-mapped.sh plugins/daytona/tests/daytona-gc-removes-leaked.sh
SBX_DAYTONA_SURFACE_TESTS = plugins/daytona/tests/daytona-wire-surface-in-spec.sh
TESTS += $(SBX_DAYTONA_TESTS)
else
SBX_DAYTONA_TESTS =
SBX_DAYTONA_SURFACE_TESTS =
endif
## Against real Daytona, with the key in DAYTONA_API_KEY: `make check-daytona-real`
## (lib/lib.mk, which also cleans what the tests leave in the build
## tree). Its benchmark: Makefile.am.
EXTRA_DIST += $(SBX_DAYTONA_SDK_TESTS) $(SBX_DAYTONA_TESTS) $(SBX_DAYTONA_SURFACE_TESTS) \
	plugins/daytona/tests/daytona-rig.sh plugins/daytona/tests/daytona-control.sh plugins/daytona/tests/rest-client.json \
	plugins/daytona/tests/daytona-real-contract.sh $(SBX_DAYTONA_DOUBLES) $(SBX_DAYTONA_SPEC) \
	docs/backends/daytona.md plugins/daytona/wire-surface.txt
