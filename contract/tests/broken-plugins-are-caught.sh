#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Each deliberately broken plugin makes the contract suite fail, on the case
# that proves its flaw: liar (declares net-none, runs host processes) on
# SBX-ISO-001, leaker (destroy leaves a process) on SBX-CLEAN-001, sleepy
# (ignores timeouts) on SBX-TIME-001, cropper (drops output past 1 MiB
# without saying truncated) on SBX-EXEC-008, deaf (built for ABI minor 2,
# never watches cancel_fd) on SBX-CANCEL-002; and crasher (every exec dies of
# SIGSEGV) fails every exec case while the runner itself carries on; hanger
# (every exec blocks) is killed at the case's time limit and reported FAIL.
#
# The script runs in a session of its own and kills whatever is left in it
# after each run, so the broken plugins leak nothing past the test.
set -u
if [ -z "${SBXC_SELFTEST_SESSION:-}" ]; then
    if ! command -v setsid >/dev/null 2>&1; then
        echo "SKIP: setsid (util-linux) is needed to contain the broken plugins' processes"
        exit 77
    fi
    SBXC_SELFTEST_SESSION=1 exec setsid -w "$0" "$@"
fi

cli="$SBX_TEST_BUILDDIR/src/sandboxio"
SANDBOXIO_PLUGIN_PATH="$SBX_TEST_BUILDDIR/tests/plugins/contract/.libs"
export SANDBOXIO_PLUGIN_PATH
work=$(mktemp -d "${TMPDIR:-/tmp}/sbxc-selftest.XXXXXX") || exit 99
# Where the broken plugins make their sandboxes: crasher and hanger never
# get to destroy theirs.
SBXC_SELFTEST_ROOT=$work
export SBXC_SELFTEST_ROOT

# The session of a live process; nothing for a zombie (it runs no more).
session_of() { sed -n 's/.*) \([^Z]\)/\1/p' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f4; }
me=$$
session=$(session_of "$me")

# Kill every process of this session but this shell; $killed says how many.
# (Not run in a $(...) subshell: that subshell would be in the session too.)
kill_leftovers() {
    killed=0
    for dir in /proc/[0-9]*; do
        pid=${dir#/proc/}
        [ "$pid" = "$me" ] && continue
        [ "$(session_of "$pid")" = "$session" ] || continue
        echo "killing leftover $pid: $(tr "\0" " " <"/proc/$pid/cmdline" 2>/dev/null)"
        kill -KILL "$pid" 2>/dev/null && killed=$((killed + 1))
    done
}
trap 'kill_leftovers; rm -rf "$work"' EXIT

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

expect_caught() {
    plugin=$1 case_id=$2
    shift 2
    "$cli" contract "$plugin://" "$@" >"$work/$plugin.out" 2>"$work/$plugin.err"
    status=$?
    kill_leftovers
    echo "--- $plugin:// (exit $status, $killed leftover processes killed)"
    cat "$work/$plugin.out"
    [ "$status" -eq 1 ] || fail "$plugin: the suite exited $status, expected 1"
    grep -q "^FAIL $case_id " "$work/$plugin.out" ||
        fail "$plugin: $case_id did not fail"
    tail -n 1 "$work/$plugin.out" | grep -Eq '^[0-9]+ passed, [1-9][0-9]* failed, [0-9]+ skipped$' ||
        fail "$plugin: closing line '$(tail -n 1 "$work/$plugin.out")'"
}

# A plugin with one flaw is run on the case that proves it; crasher runs
# the whole suite, which must carry on past every crash.
expect_caught liar SBX-ISO-001 --only SBX-ISO-001
expect_caught leaker SBX-CLEAN-001 --only SBX-CLEAN-001
grep -q '^FAIL SBX-CLEAN-001 .*still runs on the host' "$work/leaker.out" ||
    fail "leaker: SBX-CLEAN-001 failed for another reason"
expect_caught sleepy SBX-TIME-001 --only SBX-TIME-001
grep -q '^FAIL SBX-TIME-001 .*not reported as timed out' "$work/sleepy.out" ||
    fail "sleepy: SBX-TIME-001 failed for another reason"
expect_caught cropper SBX-EXEC-008 --only SBX-EXEC-008
grep -q '^FAIL SBX-EXEC-008 .*1048576 bytes captured, expected 67108864' "$work/cropper.out" ||
    fail "cropper: SBX-EXEC-008 failed for another reason"
expect_caught deaf SBX-CANCEL-002 --only SBX-CANCEL-002
grep -q '^FAIL SBX-CANCEL-002 .*returned .* over the' "$work/deaf.out" ||
    fail "deaf: SBX-CANCEL-002 failed for another reason"

expect_caught crasher SBX-EXEC-001
grep -Eq '^FAIL SBX-EXEC-001 .*(killed by signal 11|without reporting)' "$work/crasher.out" ||
    fail "crasher: SBX-EXEC-001 failed for another reason"
grep -q '^PASS SBX-LIFE-001 ' "$work/crasher.out" ||
    fail "crasher: a case that runs no command did not pass"
[ "$(grep -c '^FAIL ' "$work/crasher.out")" -ge 10 ] ||
    fail "crasher: fewer than 10 exec cases failed"

# The limit of SBX-EXEC-004 is 60 s; a factor of 0.05 makes it 3 s.
SANDBOXIO_CONTRACT_TIME_FACTOR=0.05 expect_caught hanger SBX-EXEC-004 --only SBX-EXEC-004
grep -q '^FAIL SBX-EXEC-004 .*did not finish within 3s: killed' "$work/hanger.out" ||
    fail "hanger: SBX-EXEC-004 failed for another reason"

kill_leftovers
[ "$killed" -eq 0 ] || fail "$killed processes were still running at the end"
[ "$failures" -eq 0 ] || exit 1
echo "ok: every broken plugin was caught"
