#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# On docker://, `run -i` streams stdin as it arrives: each line a command
# echoes is answered while stdin is still open (the stream loop waits on
# the core's input_ready_fd instead of calling input() and blocking the
# output), piped stdin without -i is streamed the same way, and a large
# streamed input reaches a command that writes nothing while it reads.
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"

driver="$SBX_TEST_SRCDIR/tests/cli/interactive-echo.py"
python3 "$driver" "$SBX" --dsn "$DSN" -i || fail "-i did not stream stdin"
python3 "$driver" "$SBX" --dsn "$DSN" || fail "piped stdin without -i was not streamed"

OUT="$SBX_DOCKERD_DIR/out"
ERR="$SBX_DOCKERD_DIR/err"
head -c 800000 /dev/zero | timeout 60 "$SBX" run --dsn "$DSN" -i -- sh -c 'cat >/tmp/x; wc -c </tmp/x' \
    >"$OUT" 2>"$ERR" || fail "the streamed run failed or hung ($?): $(cat "$ERR")"
[ "$(tr -d ' ' <"$OUT")" = 800000 ] || fail "the command read $(cat "$OUT") of 800000 bytes"
expect_no_leftovers
echo PASS
