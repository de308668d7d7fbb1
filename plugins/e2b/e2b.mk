# SPDX-License-Identifier: Apache-2.0
## The e2b backend: E2B sandboxes through E2B's control plane (REST) and
## envd (Connect RPC, JSON). Its tests run against spec-checked doubles of
## both (Prism before the control plane; a Connect server), proved by the
## official e2b SDK. Node and npm are test-time dependencies only: the
## doubles' packages are installed by the tests themselves (npm ci).
## (--disable-e2b leaves the plugin out; its rig tests need only node.)
if SBX_ENABLE_E2B
plugin_LTLIBRARIES += plugins/e2b/sandboxio-e2b.la
plugins_e2b_sandboxio_e2b_la_SOURCES = plugins/e2b/e2b.h plugins/e2b/plugin.c \
	plugins/e2b/endpoint.c plugins/e2b/api.c plugins/e2b/rpc.c plugins/e2b/envelope.c \
	plugins/e2b/process_end.c plugins/e2b/stream.c plugins/e2b/exec.c plugins/e2b/exec_wrapper.c \
	plugins/e2b/files.c plugins/e2b/sandbox.c plugins/e2b/lifecycle.c
nodist_plugins_e2b_sandboxio_e2b_la_SOURCES = plugins/e2b/spec-date.h
plugins_e2b_sandboxio_e2b_la_CFLAGS = $(AM_CFLAGS) $(CURL_CFLAGS) $(JSONC_CFLAGS)
plugins_e2b_sandboxio_e2b_la_LIBADD = lib/libsbxu-remote.la lib/libsbxu-curl.la lib/libsbxu-json.la \
	lib/libsbxu.la $(CURL_LIBS) $(JSONC_LIBS) -lpthread
plugins_e2b_sandboxio_e2b_la_LDFLAGS = $(SBX_PLUGIN_LINK)
endif

SBX_E2B_DOUBLES = plugins/e2b/tests/doubles/package.json \
	plugins/e2b/tests/doubles/package-lock.json plugins/e2b/tests/doubles/buf.gen.yaml \
	plugins/e2b/tests/doubles/README.md plugins/e2b/tests/doubles/gen/process_pb.js \
	plugins/e2b/tests/doubles/gen/filesystem_pb.js plugins/e2b/tests/doubles/rig.js \
	plugins/e2b/tests/doubles/front.js plugins/e2b/tests/doubles/control-plane.js \
	plugins/e2b/tests/doubles/envd-server.js plugins/e2b/tests/doubles/process-service.js \
	plugins/e2b/tests/doubles/filesystem-service.js plugins/e2b/tests/doubles/sandbox.js \
	plugins/e2b/tests/doubles/paths.js plugins/e2b/tests/doubles/faults.js \
	plugins/e2b/tests/doubles/request-state.js plugins/e2b/tests/doubles/served.js \
	plugins/e2b/tests/doubles/rig-selfcheck.js plugins/e2b/tests/doubles/sdk-session.js
SBX_E2B_SPEC = plugins/e2b/spec/SOURCES plugins/e2b/spec/openapi.yml plugins/e2b/spec/envd.yaml \
	plugins/e2b/spec/process.proto plugins/e2b/spec/filesystem.proto plugins/e2b/spec/history/SOURCES \
	plugins/e2b/spec/history/openapi.yml plugins/e2b/spec/history/process.proto \
	plugins/e2b/spec/history/filesystem.proto

## Unit tests of the backend's pure parts (no server needed).
check_PROGRAMS += plugins/e2b/tests/test_e2b_units
TESTS += plugins/e2b/tests/test_e2b_units
plugins_e2b_tests_test_e2b_units_SOURCES = plugins/e2b/tests/test_e2b_units.c plugins/e2b/e2b.h \
	plugins/e2b/envelope.c plugins/e2b/process_end.c plugins/e2b/endpoint.c \
	plugins/e2b/exec_wrapper.c
plugins_e2b_tests_test_e2b_units_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(JSONC_CFLAGS)
plugins_e2b_tests_test_e2b_units_LDADD = lib/libsbxu.la $(CHECK_LIBS) $(JSONC_LIBS)

## spec-date.h, the date of the specs it is built against: lib/lib.mk.

## The tests against the rig. The SDK session and the wire surface run
## outside sanitizer builds (lib/lib.mk says why).
SBX_E2B_SDK_TESTS = plugins/e2b/tests/e2b-sdk-session-passes.sh
SBX_E2B_TESTS =
SBX_E2B_SURFACE_TESTS =
if SBX_ENABLE_E2B
SBX_E2B_TESTS += plugins/e2b/tests/e2b-passes-contract.sh \
	plugins/e2b/tests/e2b-create-request-per-policy.sh plugins/e2b/tests/e2b-faults-mapped.sh \
	plugins/e2b/tests/e2b-gc-removes-leaked.sh plugins/e2b/tests/e2b-lifecycle-members.sh \
	plugins/e2b/tests/e2b-doctor-online-checks-key.sh
SBX_E2B_SURFACE_TESTS += plugins/e2b/tests/e2b-wire-surface-in-spec.sh
## The minor 2 members through the plugin's descriptor (dlopen), against the rig.
check_PROGRAMS += plugins/e2b/tests/lifecycle-members
plugins_e2b_tests_lifecycle_members_SOURCES = plugins/e2b/tests/lifecycle-members.c \
	lib/tests/host.h
plugins_e2b_tests_lifecycle_members_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
plugins_e2b_tests_lifecycle_members_LDADD = $(CHECK_LIBS) -ldl
endif
TESTS += $(SBX_E2B_TESTS)
## Against real E2B, with the key in E2B_API_KEY: `make check-e2b-real`
## (lib/lib.mk, which also cleans what the tests leave in the build
## tree). Its benchmark: Makefile.am.
EXTRA_DIST += $(SBX_E2B_SDK_TESTS) $(SBX_E2B_TESTS) $(SBX_E2B_SURFACE_TESTS) \
	plugins/e2b/tests/e2b-rig.sh plugins/e2b/tests/e2b-control.sh plugins/e2b/tests/rest-client.json \
	plugins/e2b/tests/e2b-real-contract.sh $(SBX_E2B_DOUBLES) $(SBX_E2B_SPEC) \
	docs/backends/e2b.md plugins/e2b/wire-surface.txt
