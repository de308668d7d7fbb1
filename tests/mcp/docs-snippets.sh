#!/bin/sh
# See docs-snippets.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node docs-snippets.mjs
