#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# See stdio-end-destroys-sandboxes.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node stdio-end-destroys-sandboxes.mjs
