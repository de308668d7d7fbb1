#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# See inspector-stdio.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node inspector-stdio.mjs
