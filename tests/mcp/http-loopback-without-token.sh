#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# See http-loopback-without-token.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node http-loopback-without-token.mjs
