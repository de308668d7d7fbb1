#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# See sdk-stdio-pool.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node sdk-stdio-pool.mjs
