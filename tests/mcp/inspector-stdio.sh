#!/bin/sh
# See inspector-stdio.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node inspector-stdio.mjs
