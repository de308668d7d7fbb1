#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# See tighten-allow-host-ports.mjs.
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node tighten-allow-host-ports.mjs
