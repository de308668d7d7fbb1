#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# See stdio-limits.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node stdio-limits.mjs
