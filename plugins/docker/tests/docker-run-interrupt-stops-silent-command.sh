#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio run -- sleep 600` (a command that writes nothing) sent SIGTERM
# exits 143 well before the command's 600 s, and no container is left (the
# bound only tells "stopped" from "ran on").
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"
. "$SBX_TEST_SRCDIR/tests/interrupt-lib.sh"

err="$SBX_DOCKERD_DIR/err"
"$SBX" run --dsn "$DSN" -- sleep 600 >/dev/null 2>"$err" </dev/null &
pid=$!

# Started: its container runs.
i=0
while [ -z "$(docker ps -q --filter label=io.sandboxio.sandbox --filter status=running)" ]; do
    i=$((i + 1))
    [ "$i" -lt 600 ] || { kill -KILL "$pid"; fail "the command's container never ran"; }
    sleep 0.1
done
sleep 0.5
sigterm_and_wait "$pid"
echo "interrupted run: exit $status $stop_ms ms after SIGTERM"
[ "$status" -eq 143 ] || fail "exit $status, expected 143: $(cat "$err")"
grep -q "sandboxio: interrupted" "$err" || fail "no interrupt note: $(cat "$err")"
expect_no_leftovers
echo "PASS"
