#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# See run-prepares-backend-once.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node run-prepares-backend-once.mjs
