# SPDX-License-Identifier: Apache-2.0
## (fragment: see Makefile.am)
## `sandboxio mcp`: the MCP server, an executable part of the sandboxio
## program (src/cli/parts.h): libmicrohttpd is mapped by it alone.
pkglibexec_PROGRAMS += src/sandboxio-mcp
src_sandboxio_mcp_SOURCES = src/cli/part_main.c \
	src/cli/mcp/args.c \
	src/cli/mcp/args.h \
	src/cli/mcp/auth.c \
	src/cli/mcp/auth.h \
	src/cli/mcp/cmd_mcp.c \
	src/cli/mcp/http.c \
	src/cli/mcp/http.h \
	src/cli/mcp/http_stream.c \
	src/cli/mcp/jsonrpc.c \
	src/cli/mcp/jsonrpc.h \
	src/cli/mcp/progress.c \
	src/cli/mcp/progress.h \
	src/cli/mcp/protocol.c \
	src/cli/mcp/protocol.h \
	src/cli/mcp/replay.c \
	src/cli/mcp/replay.h \
	src/cli/mcp/result.c \
	src/cli/mcp/result.h \
	src/cli/mcp/schema.c \
	src/cli/mcp/server.c \
	src/cli/mcp/server.h \
	src/cli/mcp/session.c \
	src/cli/mcp/stdio.c \
	src/cli/mcp/tighten.c \
	src/cli/mcp/tighten.h \
	src/cli/mcp/tools.c \
	src/cli/mcp/tools.h
## Tighten-only reads allow_hosts as the local backend's egress proxy
## enforces them: with the proxy's own parser and rules (also fuzz.mk's).
SBX_MCP_ALLOW_COVER_SOURCES = src/cli/mcp/allow_cover.c src/cli/mcp/allow_cover.h \
	plugins/local/proxy/allow.c plugins/local/proxy/allow.h \
	plugins/local/proxy/parse.c plugins/local/proxy/parse.h
src_sandboxio_mcp_SOURCES += $(SBX_MCP_ALLOW_COVER_SOURCES)
src_sandboxio_mcp_CPPFLAGS = $(sbx_part_cppflags) -DSBX_PART_CMD=cmd_mcp -DSBX_PART_NAME='"mcp"' \
	-I$(top_srcdir)/plugins/local
src_sandboxio_mcp_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) $(MHD_CFLAGS)
src_sandboxio_mcp_LDADD = $(SBX_CLI_LDADD) $(MHD_LIBS)
dist_doc_DATA += docs/mcp.md

## Tests with the ecosystem's own clients (node; npm ci of tests/mcp/package-lock.json).
SBX_MCP_TESTS = \
	tests/mcp/sdk-stdio-tools.sh \
	tests/mcp/sdk-stdio-cancel.sh \
	tests/mcp/stdio-end-destroys-sandboxes.sh \
	tests/mcp/inspector-stdio.sh \
	tests/mcp/sdk-http.sh \
	tests/mcp/http-abuse.sh \
	tests/mcp/conformance-http.sh \
	tests/mcp/sdk-progress.sh \
	tests/mcp/sdk-stdio-pool.sh \
	tests/mcp/docs-snippets.sh \
	tests/mcp/stdio-limits.sh \
	tests/mcp/sdk-tighten-policy.sh \
	tests/mcp/stdio-ignored-signals-stay-ignored.sh \
	tests/mcp/http-session-expires.sh \
	tests/mcp/http-loopback-without-token.sh \
	tests/mcp/http-resume.sh \
	tests/mcp/sdk-text-content-carries-result.sh \
	tests/mcp/tighten-allow-host-ports.sh \
	tests/mcp/http-sessions-and-sandboxes-capped.sh \
	tests/mcp/run-prepares-backend-once.sh
## They run their sandboxes on local://: in a build without it, only the
## server is built.
if SBX_ENABLE_LOCAL
TESTS += $(SBX_MCP_TESTS)
endif
EXTRA_DIST += $(SBX_MCP_TESTS) tests/mcp/lib.sh tests/mcp/client.mjs 	tests/mcp/package.json tests/mcp/package-lock.json \
	tests/mcp/procs.mjs tests/mcp/sdk-stdio-tools.mjs tests/mcp/sdk-stdio-cancel.mjs \
	tests/mcp/stdio-end-destroys-sandboxes.mjs tests/mcp/inspector-stdio.mjs \
	tests/mcp/http-server.mjs tests/mcp/sdk-http.mjs tests/mcp/http-abuse.mjs tests/mcp/sdk-progress.mjs \
	tests/mcp/sdk-stdio-pool.mjs tests/mcp/docs-snippets.mjs tests/mcp/stdio-limits.mjs \
	tests/mcp/sdk-tighten-policy.mjs tests/mcp/stdio-ignored-signals-stay-ignored.mjs \
	tests/mcp/http-session-expires.mjs tests/mcp/http-loopback-without-token.mjs tests/mcp/raw-stdio.mjs tests/mcp/http-resume.mjs \
	tests/mcp/sdk-text-content-carries-result.mjs \
	tests/mcp/conformance-expected-failures.yml \
	tests/mcp/conformance-expected-failures.yml tests/mcp/tighten-allow-host-ports.mjs \
	tests/mcp/http-sessions-and-sandboxes-capped.mjs tests/mcp/run-prepares-backend-once.mjs
CLEANFILES += tests/mcp-npm.lock

## The benchmark (bench/mcp/run.sh BUILDDIR; docs/performance.md).
EXTRA_DIST += bench/mcp/run.sh bench/mcp/bench-mcp.mjs

## The warm pool of the core (src/core/pool.c), which `mcp --pool` uses.
check_PROGRAMS += tests/test_pool
TESTS += tests/test_pool
SBX_VALGRIND_TESTS += tests/test_pool
tests_test_pool_SOURCES = tests/test_pool.c tests/testutil.h
tests_test_pool_CFLAGS = $(SBX_CHECK_CFLAGS)
tests_test_pool_LDADD = $(SBX_CHECK_LDADD)

## The npm packages the tests installed into the build tree. (Other
## fragments may add their own prerequisites to clean-local the same way.)
clean-local: clean-local-mcp
clean-local-mcp:
	rm -rf tests/mcp-node
.PHONY: clean-local-mcp
