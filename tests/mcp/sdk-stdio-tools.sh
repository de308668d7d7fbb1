#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The official SDK client drives every tool over stdio: exact results and errors.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node sdk-stdio-tools.mjs
