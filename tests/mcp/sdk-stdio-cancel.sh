#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# See sdk-stdio-cancel.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node sdk-stdio-cancel.mjs
