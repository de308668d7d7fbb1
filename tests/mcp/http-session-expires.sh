#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# See http-session-expires.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node http-session-expires.mjs
