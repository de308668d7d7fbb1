#!/bin/sh
# A timeout kills a command's whole tree even while it holds every pid the
# pids limit allows: the children keep the output stream open, so the run
# can only end (status 124, the CLI's timeout status) once all are dead.
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"

start=$(date +%s)
set +e
timeout 120 "$SBX" run --dsn "$DSN" --pids 32 --timeout 2s -- \
    sh -c 'while :; do sleep 1000 & done' >/dev/null 2>"$SBX_DOCKERD_DIR/err"
status=$?
set -e
elapsed=$(($(date +%s) - start))
echo "exit $status after $elapsed s"
[ "$status" -eq 124 ] || fail "exit $status, expected 124: $(cat "$SBX_DOCKERD_DIR/err")"
[ "$elapsed" -lt 60 ] || fail "the timeout took $elapsed s to end the command"
expect_no_leftovers
echo "PASS"
