#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# See sdk-progress.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node sdk-progress.mjs
