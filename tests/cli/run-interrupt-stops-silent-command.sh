#!/bin/sh
# A run whose command writes nothing still stops at SIGTERM: the command and
# the sandbox are gone and sandboxio exits 143 well before the command's
# 600 s (the bound only tells "stopped" from "ran on").
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

pidfile="$TMP/command.pid"
roots="$TMP/roots"   # the fake backend makes its sandbox roots in $TMPDIR
mkdir "$roots"
TMPDIR=$roots "$SBX" run --network open -- sh -c "echo \$\$ >'$pidfile'; exec sleep 600" \
    >"$OUT" 2>"$ERR" </dev/null &
pid=$!

i=0
while [ ! -s "$pidfile" ]; do
    i=$((i + 1))
    [ "$i" -lt 100 ] || { kill -KILL "$pid"; fail "the command never started"; }
    sleep 0.1
done
cmd_pid=$(cat "$pidfile")
kill -TERM "$pid"

# Wait at most 15 s for sandboxio to exit.
i=0
while kill -0 "$pid" 2>/dev/null; do
    i=$((i + 1))
    if [ "$i" -ge 150 ]; then
        kill -KILL "$pid" "$cmd_pid" 2>/dev/null || true
        fail "sandboxio still runs 15 s after SIGTERM"
    fi
    sleep 0.1
done
set +e
wait "$pid"
status=$?
set -e

expect_status 143
expect_stderr_has "sandboxio: interrupted"
[ ! -s "$OUT" ] || fail "a command that writes nothing produced output"
if kill -0 "$cmd_pid" 2>/dev/null; then
    kill -KILL "$cmd_pid" || true
    fail "the command (pid $cmd_pid) outlived the run"
fi
left=$(ls -A "$roots")
[ -z "$left" ] || fail "the sandbox was left behind: $left"
