#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A timeout kills a command's whole tree even while it holds every pid the
# pids limit allows:
#   - in an open sandbox (exec-storm-timeout): the storm's children keep the
#     exec's output open, so the exec can only end once all are dead, and
#     the kill itself cannot fork (the last resort restarts the container);
#   - in a one-shot run (`sandboxio run`, the command as the container's own
#     process): the storm fills the pids, then the command waits in exec'd
#     sleep; status 124, the CLI's timeout status.
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"

start=$(date +%s)
timeout 120 "$SBX_TEST_BUILDDIR/plugins/docker/tests/exec-storm-timeout" "$DSN" ||
    fail "the storm in an open sandbox was not ended by its timeout"
elapsed=$(($(date +%s) - start))
[ "$elapsed" -lt 60 ] || fail "the timeout took $elapsed s to end the exec"

start=$(date +%s)
set +e
timeout 120 "$SBX" run --dsn "$DSN" --pids 32 --timeout 2s -- \
    sh -c '(while :; do sleep 1000 & done) 2>/dev/null; exec sleep 1000' \
    >/dev/null 2>"$SBX_DOCKERD_DIR/err"
status=$?
set -e
elapsed=$(($(date +%s) - start))
echo "one-shot run: exit $status after $elapsed s"
[ "$status" -eq 124 ] || fail "exit $status, expected 124: $(cat "$SBX_DOCKERD_DIR/err")"
[ "$elapsed" -lt 60 ] || fail "the timeout took $elapsed s to end the command"
expect_no_leftovers
echo "PASS"
