#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# File operations on a FIFO planted in /work refuse at once with SBX_E4014
# (fifo-refused.c), and nothing is left behind.
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"

"$SBX_TEST_BUILDDIR/plugins/docker/tests/fifo-refused" "$DSN" || fail "a FIFO was not refused"
expect_no_leftovers
echo PASS
