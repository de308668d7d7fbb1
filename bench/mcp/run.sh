#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/mcp/run.sh [BUILDDIR] - the MCP server's figures (see bench-mcp.mjs):
# `run` of true with --pool 4 and without, the reference server's trivial
# tool, and a one-shot bwrap, interleaved (RUNS rounds, default 200); then
# the server's RSS with 8 sandboxes open. Needs node, npm and bwrap.
set -eu
b=$(cd "${1:-.}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
make -C "$b" -s src/sandboxio plugins/local/sandboxio-local.la plugins/local/sandboxio-local-init >/dev/null
export SBX_TEST_BUILDDIR="$b" SBX_TEST_SRCDIR="$src"
export SANDBOXIO_PLUGIN_PATH="$b/plugins/local/.libs"
export SANDBOXIO_LOCAL_INIT="$b/plugins/local/sandboxio-local-init"
# The real binary, not libtool's wrapper script (a shell start per server).
export LD_LIBRARY_PATH="$b/src/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
SBX="$b/src/.libs/sandboxio"
[ -x "$SBX" ] || SBX="$b/src/sandboxio"
# shellcheck source=../../tests/mcp/lib.sh
. "$src/tests/mcp/lib.sh"
mcp_npm_ci
export SBX
cp "$src/bench/mcp/bench-mcp.mjs" "$MCP_NODE_DIR/"
echo "# $(uname -srm), $(nproc) CPUs, uid $(id -u)"
cd "$MCP_NODE_DIR" && node bench-mcp.mjs
