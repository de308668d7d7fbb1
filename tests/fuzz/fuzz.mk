# SPDX-License-Identifier: Apache-2.0
## libFuzzer targets (configure --enable-fuzz CC=clang; `make fuzz` builds
## them, scripts/run-fuzz.sh runs each for a bounded time). Each compiles the
## sources it tests itself, with ASan+UBSan and libFuzzer's coverage.
## Seed corpora: tests/fuzz/corpus/<target>/.
FUZZ_TARGETS = tests/fuzz/fuzz_dsn tests/fuzz/fuzz_docker_demux tests/fuzz/fuzz_docker_control \
	tests/fuzz/fuzz_e2b_envelope tests/fuzz/fuzz_mcp_jsonrpc tests/fuzz/fuzz_profile \
	tests/fuzz/fuzz_proxy_request tests/fuzz/fuzz_proxy_sni tests/fuzz/fuzz_daytona_status \
	tests/fuzz/fuzz_allow_cover tests/fuzz/fuzz_docker_listing
EXTRA_PROGRAMS += $(FUZZ_TARGETS)
CLEANFILES += $(FUZZ_TARGETS)

tests_fuzz_fuzz_dsn_SOURCES = tests/fuzz/fuzz_dsn.c \
	src/core/dsn.c src/core/dsn_print.c src/core/error.c src/core/error_catalog.c \
	src/core/alloc.c
tests_fuzz_fuzz_dsn_CPPFLAGS = $(AM_CPPFLAGS) -DSBX_BUILDING_LIBRARY
tests_fuzz_fuzz_dsn_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_fuzz_dsn_LDFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_dsn_LDADD = -lpthread

SBX_FUZZ_DOCKER_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS) $(CURL_CFLAGS) $(JSONC_CFLAGS)
tests_fuzz_fuzz_docker_demux_SOURCES = tests/fuzz/fuzz_docker_demux.c tests/fuzz/chunks.h \
	plugins/docker/demux.c
tests_fuzz_fuzz_docker_demux_CFLAGS = $(SBX_FUZZ_DOCKER_CFLAGS)
tests_fuzz_fuzz_docker_demux_LDFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_docker_control_SOURCES = tests/fuzz/fuzz_docker_control.c tests/fuzz/chunks.h \
	plugins/docker/control.c lib/buf.c
tests_fuzz_fuzz_docker_control_CFLAGS = $(SBX_FUZZ_DOCKER_CFLAGS)
tests_fuzz_fuzz_docker_control_LDFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_docker_listing_SOURCES = tests/fuzz/fuzz_docker_listing.c plugins/docker/listing.c
tests_fuzz_fuzz_docker_listing_CFLAGS = $(SBX_FUZZ_DOCKER_CFLAGS)
tests_fuzz_fuzz_docker_listing_LDFLAGS = $(FUZZ_CFLAGS)

## The e2b backend's Connect stream decoder (envd's answer to Start).
tests_fuzz_fuzz_e2b_envelope_SOURCES = tests/fuzz/fuzz_e2b_envelope.c tests/fuzz/chunks.h \
	plugins/e2b/envelope.c
tests_fuzz_fuzz_e2b_envelope_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS) $(JSONC_CFLAGS)
tests_fuzz_fuzz_e2b_envelope_LDFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_e2b_envelope_LDADD = $(JSONC_LIBS)

## The daytona backend's reader of its exec wrapper's status file, which
## the command in the sandbox can write too.
tests_fuzz_fuzz_daytona_status_SOURCES = tests/fuzz/fuzz_daytona_status.c plugins/daytona/status.c
tests_fuzz_fuzz_daytona_status_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS) $(JSONC_CFLAGS) $(CURL_CFLAGS)
tests_fuzz_fuzz_daytona_status_LDFLAGS = $(FUZZ_CFLAGS)

## The MCP server's JSON-RPC parser: every byte a client sends.
tests_fuzz_fuzz_mcp_jsonrpc_SOURCES = tests/fuzz/fuzz_mcp_jsonrpc.c src/cli/mcp/jsonrpc.c
tests_fuzz_fuzz_mcp_jsonrpc_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS) $(JSONC_CFLAGS)
tests_fuzz_fuzz_mcp_jsonrpc_LDFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_mcp_jsonrpc_LDADD = $(JSONC_LIBS)

## The CLI's YAML profiles reader: every byte of a profiles file.
tests_fuzz_fuzz_profile_SOURCES = tests/fuzz/fuzz_profile.c src/cli/profile.c src/cli/profile_set.c \
	src/cli/common/parse.c
tests_fuzz_fuzz_profile_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS) $(JSONC_CFLAGS) $(YAML_CFLAGS)
tests_fuzz_fuzz_profile_LDFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_profile_LDADD = src/libsandboxio.la $(JSONC_LIBS) $(YAML_LIBS)

## The local allowlist proxy's parsers: every byte a sandbox sends it.
tests_fuzz_fuzz_proxy_request_SOURCES = tests/fuzz/fuzz_proxy_request.c \
	plugins/local/proxy/parse.c plugins/local/proxy/parse.h
tests_fuzz_fuzz_proxy_request_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_fuzz_proxy_request_LDFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_proxy_sni_SOURCES = tests/fuzz/fuzz_proxy_sni.c \
	plugins/local/proxy/parse.c plugins/local/proxy/parse.h
tests_fuzz_fuzz_proxy_sni_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_fuzz_proxy_sni_LDFLAGS = $(FUZZ_CFLAGS)

## An MCP agent's allow_hosts against the operator's --allow-host, as the
## proxy reads and enforces both: every entry a client sends.
tests_fuzz_fuzz_allow_cover_SOURCES = tests/fuzz/fuzz_allow_cover.c $(SBX_MCP_ALLOW_COVER_SOURCES)
tests_fuzz_fuzz_allow_cover_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins/local
tests_fuzz_fuzz_allow_cover_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_fuzz_allow_cover_LDFLAGS = $(FUZZ_CFLAGS)

EXTRA_DIST += scripts/run-fuzz.sh tests/fuzz/corpus tests/fuzz/fuzz_dsn.dict tests/fuzz/fuzz_profile.dict

.PHONY: fuzz
if FUZZ
fuzz: $(FUZZ_TARGETS)
else
fuzz:
	@echo "make fuzz: configure with --enable-fuzz CC=clang first" >&2; exit 1
endif
