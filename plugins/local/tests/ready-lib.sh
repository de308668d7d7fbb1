# SPDX-License-Identifier: Apache-2.0
# Sourced by the tests of `run`'s ready sandbox on local:// (after
# plugins/local/tests/lib.sh and tests/cli/lib.sh), not run: the ready
# sandboxes on, with a runtime directory of the test's own, the run's
# trace on stderr, and helpers to see what is ready. On exit every sandbox
# the test left is destroyed and nothing of it may remain.
SANDBOXIO_DSN=local://
SANDBOXIO_LOCAL_RUNDIR="$TMP/rundir"
SANDBOXIO_RUN_READY=1
SANDBOXIO_RUN_READY_TRACE=1
SANDBOXIO_RUN_READY_TTL=${SANDBOXIO_RUN_READY_TTL:-60s}
export SANDBOXIO_DSN SANDBOXIO_LOCAL_RUNDIR SANDBOXIO_RUN_READY SANDBOXIO_RUN_READY_TRACE \
    SANDBOXIO_RUN_READY_TTL
READY="$SANDBOXIO_LOCAL_RUNDIR/ready"

# ready_cleanup: gc the ready sandboxes, kill what is left, remove $TMP.
ready_cleanup() {
    "$SBX" gc local:// >/dev/null 2>&1 || true
    for rec in "$SANDBOXIO_LOCAL_RUNDIR"/*.rec; do
        [ -e "$rec" ] || continue
        id=${rec##*/}
        "$SBX" kill "local:${id%.rec}" >/dev/null 2>&1 || true
    done
    rm -rf "$TMP"
}
trap ready_cleanup EXIT

# ready_ids: the ids of the sandboxes ready now, one a line.
ready_ids() {
    for f in "$READY"/r.*; do
        [ -e "$f" ] && echo "${f##*.}"
    done
    return 0
}

# wait_ready N: wait (up to 30 s) until N sandboxes are ready and none is
# being made; prints their ids.
wait_ready() {
    i=0
    while [ "$(ready_ids | wc -l)" -ne "$1" ] || ls "$READY"/p.* >/dev/null 2>&1; do
        i=$((i + 1))
        [ $i -le 300 ] || fail "not $1 ready sandbox(es) after 30 s: $(ls -A "$READY" 2>&1 | tr '\n' ' ')"
        sleep 0.1
    done
    ready_ids
}

# wait_idle: wait (up to 30 s) until no sandbox is being made; prints how many are ready.
wait_idle() {
    i=0
    while ls -d "$READY"/p.* >/dev/null 2>&1 || ls -d "$READY"/t.* >/dev/null 2>&1; do
        i=$((i + 1))
        [ $i -le 300 ] || fail "sandboxes still being made after 30 s: $(ls -A "$READY" | tr '\n' ' ')"
        sleep 0.1
    done
    ready_ids | wc -l
}

# init_pid ID: the host pid of sandbox ID's init (local ids are local-PID-RANDOM).
init_pid() {
    p=${1#local-}
    echo "${p%%-*}"
}

# expect_gone ID: sandbox ID has no process, socket or record left (within
# 10 s: a run leaves the teardown of the sandbox it used to the background).
expect_gone() {
    p=$(init_pid "$1")
    i=0
    while { [ -e "/proc/$p" ] && grep -q sandboxio-local-init "/proc/$p/cmdline" 2>/dev/null; } ||
          [ -e "$SANDBOXIO_LOCAL_RUNDIR/$1" ] || [ -e "$SANDBOXIO_LOCAL_RUNDIR/$1.rec" ]; do
        i=$((i + 1))
        [ $i -le 100 ] || fail "sandbox $1 is left: init pid $p, $(ls "$SANDBOXIO_LOCAL_RUNDIR" | tr '\n' ' ')"
        sleep 0.1
    done
}

# expect_took ID: the last run's trace says it took sandbox ID.
expect_took() {
    expect_stderr_has "sandboxio: run: took the ready sandbox $1"
}

# expect_made: the last run's trace says it took none and made its own.
expect_made() {
    expect_stderr_has "sandboxio: run: no ready sandbox: making one"
    ! grep -q "took the ready sandbox" "$ERR" || fail "the run took a ready sandbox"
}
