#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# See http-sessions-and-sandboxes-capped.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node http-sessions-and-sandboxes-capped.mjs
