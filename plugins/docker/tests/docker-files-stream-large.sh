#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A file of 96 MiB (past the 64 MiB mark) goes into and out of a docker
# sandbox through the archive endpoints streamed: intact, and without the
# client's memory growing by the file's size.
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"
"$SBX_TEST_BUILDDIR/plugins/docker/tests/large-file" "$DSN" || fail "large-file failed"
expect_no_leftovers
