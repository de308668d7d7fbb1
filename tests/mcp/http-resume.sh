#!/bin/sh
# See http-resume.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node http-resume.mjs
