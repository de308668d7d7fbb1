#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A run whose command writes nothing still stops at SIGTERM: the command and
# the sandbox are gone and sandboxio exits 143 well before the command's
# 600 s (the bound only tells "stopped" from "ran on"); with --json too,
# which prints the cancel as {"error": ...}.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
. "$SBX_TEST_SRCDIR/tests/interrupt-lib.sh"

pidfile="$TMP/command.pid"
roots="$TMP/roots"   # the fake backend makes its sandbox roots in $TMPDIR
mkdir "$roots"

# interrupted_run [--json]: run the silent command, SIGTERM it once started.
interrupted_run() {
    rm -f "$pidfile"
    TMPDIR=$roots "$SBX" run --network open "$@" -- sh -c "echo \$\$ >'$pidfile'; exec sleep 600" \
        >"$OUT" 2>"$ERR" </dev/null &
    pid=$!

    i=0
    while [ ! -s "$pidfile" ]; do
        i=$((i + 1))
        [ "$i" -lt 100 ] || { kill -KILL "$pid"; fail "the command never started"; }
        sleep 0.1
    done
    cmd_pid=$(cat "$pidfile")
    sigterm_and_wait "$pid" "$cmd_pid"
    expect_status 143
    expect_stderr_has "sandboxio: interrupted"
    if kill -0 "$cmd_pid" 2>/dev/null; then
        kill -KILL "$cmd_pid" || true
        fail "the command (pid $cmd_pid) outlived the run"
    fi
    left=$(ls -A "$roots")
    [ -z "$left" ] || fail "the sandbox was left behind: $left"
}

interrupted_run
[ ! -s "$OUT" ] || fail "a command that writes nothing produced output"
interrupted_run --json
json_check 'd["error"]["code"] == 5008 and d["error"]["id"] == "SBX_E5008"'
