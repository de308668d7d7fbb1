#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A tool result's text content is its structuredContent serialized: an MCP
# `run` result's text holds the command's stdout (for clients that read
# only content).
set -eu
. "$SBX_TEST_SRCDIR/tests/mcp/lib.sh"
mcp_node sdk-text-content-carries-result.mjs
