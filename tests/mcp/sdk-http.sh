#!/bin/sh
# See sdk-http.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node sdk-http.mjs
