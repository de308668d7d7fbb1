# SPDX-License-Identifier: Apache-2.0
# Sourced by the tests that interrupt a run, not run: needs the caller's
# fail() function.

# sigterm_and_wait PID [PID...]: send the first PID SIGTERM, wait for it to
# exit within 15 s (else kill it and the other PIDs, and fail), and set
# $status to its exit status and $stop_ms to how long that took.
sigterm_and_wait() {
    start_ns=$(date +%s%N)
    kill -TERM "$1"
    waited=0
    while kill -0 "$1" 2>/dev/null; do
        waited=$((waited + 1))
        if [ "$waited" -ge 150 ]; then
            kill -KILL "$@" 2>/dev/null || true
            fail "sandboxio still runs 15 s after SIGTERM"
        fi
        sleep 0.1
    done
    set +e
    wait "$1"
    status=$?
    set -e
    stop_ms=$((($(date +%s%N) - start_ns) / 1000000))
}
