#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A one-shot run whose container's PID 1 (docker-init) is stopped (inside,
# a ptrace of PID 1 does it; here SIGSTOP from the host) still reports the
# command's exit as soon as the command has ended, without --timeout: the
# container is killed, nothing is left.
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"

OUT="$SBX_DOCKERD_DIR/out"
ERR="$SBX_DOCKERD_DIR/err"
"$SBX" run --dsn "$DSN" -- sh -c 'sleep 3; echo finished; exit 7' >"$OUT" 2>"$ERR" &
run_pid=$!
id=
i=0
while [ -z "$id" ]; do
    id=$(docker ps -q --filter label=io.sandboxio.sandbox)
    i=$((i + 1)); [ $i -lt 300 ] || fail "no running container of the run within 30 s"
    [ -n "$id" ] || sleep 0.1
done
init=$(docker inspect --format '{{.State.Pid}}' "$id")
[ "${init:-0}" -gt 0 ] || fail "no host pid for the container's PID 1"
kill -STOP "$init"
start=$(date +%s)
echo "PID 1 of $id (host pid $init) stopped"
# The command ends 3 s after it started; allow it 25 s more in all.
i=0
while kill -0 "$run_pid" 2>/dev/null; do
    i=$((i + 1))
    if [ $i -ge 250 ]; then
        kill -CONT "$init" 2>/dev/null || true
        kill -KILL "$run_pid" 2>/dev/null || true
        fail "run did not return 25 s after its PID 1 was stopped"
    fi
    sleep 0.1
done
status=0
wait "$run_pid" || status=$?
echo "run returned after $(( $(date +%s) - start )) s with status $status"
[ "$status" -eq 7 ] || fail "run exited $status, not the command's 7: $(cat "$ERR")"
[ "$(cat "$OUT")" = finished ] || fail "the command's output was lost: $(cat "$OUT")"
expect_no_leftovers
echo PASS
