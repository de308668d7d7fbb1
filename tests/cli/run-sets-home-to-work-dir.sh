#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# On the fake backend, as on the real ones, a command's HOME is the work dir
# unless -e gives one; nothing else of ours is passed (no TERM without -t).
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
TERM=sbx-test-term
export TERM

sbx run --network open -- sh -c 'test "$HOME" = "$(pwd)" && echo "same ${TERM-unset}"'
expect_status 0
expect_stdout "same unset"
sbx run --network open -e HOME=/elsewhere -- sh -c 'echo "$HOME"'
expect_status 0
expect_stdout /elsewhere
