#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# See sdk-tighten-policy.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node sdk-tighten-policy.mjs
