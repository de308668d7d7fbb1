#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A run that is sent SIGTERM stops its command, destroys the sandbox and
# exits 128+15, rather than dying and leaving the command running.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

marker="sbx-cli-interrupt-$$"
pidfile="$TMP/command.pid"
"$SBX" run --network open -- sh -c "echo \$\$ >'$pidfile'; while :; do echo $marker; sleep 0.1; done" \
    >"$OUT" 2>"$ERR" </dev/null &
pid=$!

# Wait for the command's first output, then interrupt sandboxio alone.
i=0
while ! grep -q "$marker" "$OUT"; do
    i=$((i + 1))
    [ "$i" -lt 100 ] || { kill -KILL "$pid"; fail "the command never started"; }
    sleep 0.1
done
kill -TERM "$pid"
set +e
wait "$pid"
status=$?
set -e

expect_status 143
expect_stderr_has "sandboxio: interrupted"
# The fake backend runs the command as a host process: it must be gone.
cmd_pid=$(cat "$pidfile")
[ -n "$cmd_pid" ] || fail "the command did not record its pid"
sleep 0.3
if kill -0 "$cmd_pid" 2>/dev/null; then
    kill -KILL "$cmd_pid" || true
    fail "the command (pid $cmd_pid) outlived its sandbox"
fi
