#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# See stdio-ignored-signals-stay-ignored.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node stdio-ignored-signals-stay-ignored.mjs
