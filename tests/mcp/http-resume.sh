#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# See http-resume.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node http-resume.mjs
