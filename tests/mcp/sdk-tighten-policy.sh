#!/bin/sh
# See sdk-tighten-policy.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node sdk-tighten-policy.mjs
