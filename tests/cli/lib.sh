# SPDX-License-Identifier: Apache-2.0
# Shared by the CLI tests: sourced, not run. Needs the harness's
# SBX_TEST_BUILDDIR (and SANDBOXIO_PLUGIN_PATH pointing at the fake plugin).

: "${SBX_TEST_BUILDDIR:?run this test through make check}"
SBX="$SBX_TEST_BUILDDIR/src/sandboxio"
FAKE_DIR="$SBX_TEST_BUILDDIR/plugins/fake/.libs"

# A missing binary or plugin is a broken build, not a reason to skip.
[ -x "$SBX" ] || { echo "ERROR: $SBX is not built" >&2; exit 99; }
[ -f "$FAKE_DIR/sandboxio-fake.so" ] || { echo "ERROR: the fake plugin is not built in $FAKE_DIR" >&2; exit 99; }

# The tests run on the fake backend unless they say otherwise, whatever the
# compiled-in default backend is.
SANDBOXIO_DSN=fake://
export SANDBOXIO_DSN

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# local:// sandboxes with a TTL are this test's alone: a bare `ps` lists
# every backend, and must not see another test's running beside it.
SANDBOXIO_LOCAL_RUNDIR="$TMP/run"
export SANDBOXIO_LOCAL_RUNDIR
OUT="$TMP/out"
ERR="$TMP/err"

fail() {
    echo "FAIL: $*" >&2
    echo "--- stdout:" >&2; cat "$OUT" >&2 2>/dev/null || true
    echo "--- stderr:" >&2; cat "$ERR" >&2 2>/dev/null || true
    exit 1
}

# sbx ARGS...: run sandboxio with stdin from /dev/null; sets $status, fills $OUT and $ERR.
sbx() {
    set +e
    "$SBX" "$@" >"$OUT" 2>"$ERR" </dev/null
    status=$?
    set -e
    echo "sandboxio $* -> $status"
}

# sbx_in INPUT ARGS...: the same, with INPUT on stdin.
sbx_in() {
    input=$1; shift
    set +e
    printf '%s' "$input" | "$SBX" "$@" >"$OUT" 2>"$ERR"
    status=$?
    set -e
    echo "sandboxio $* <<< '$input' -> $status"
}

# sbx_tty ARGS...: the same with a terminal as stdin (script(1), util-linux),
# for what -t and `shell` do at a terminal; stdout is the terminal's output.
sbx_tty() {
    command -v script >/dev/null 2>&1 || { echo "ERROR: script(1) is needed (util-linux)" >&2; exit 99; }
    set +e
    # LeakSanitizer cannot stop a process that script(1) hangs up as its input
    # ends ("Tracer caught signal 11"): in the sanitizer build, leaks are
    # looked for in the same commands without a terminal, not here.
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        script -qec "$(printf "'%s' " "$SBX" "$@") 2>'$ERR'" /dev/null >"$OUT" </dev/null
    status=$?
    set -e
    echo "sandboxio $* (on a terminal) -> $status"
}

# use_testcaps: put the core's test plugin first on the search path; it logs
# every call it receives to $SBX_TESTCAPS_LOG ($TMP/calls).
use_testcaps() {
    TESTCAPS_DIR="$SBX_TEST_BUILDDIR/tests/plugins/.libs"
    [ -f "$TESTCAPS_DIR/sandboxio-testcaps.so" ] ||
        { echo "ERROR: the test plugin is not built in $TESTCAPS_DIR" >&2; exit 99; }
    SANDBOXIO_PLUGIN_PATH="$TESTCAPS_DIR:$SANDBOXIO_PLUGIN_PATH"
    SBX_TESTCAPS_LOG="$TMP/calls"
    export SANDBOXIO_PLUGIN_PATH SBX_TESTCAPS_LOG
}

# expect_calls LINE...: the test plugin's log is exactly these lines; then empty it.
expect_calls() {
    printf '%s\n' "$@" >"$TMP/expected"
    diff -u "$TMP/expected" "$SBX_TESTCAPS_LOG" >&2 || fail "the backend did not get what was asked"
    rm -f "$SBX_TESTCAPS_LOG"
}

expect_status() {
    [ "$status" -eq "$1" ] || fail "exit status $status, expected $1"
}

expect_stdout() {
    [ "$(cat "$OUT")" = "$1" ] || fail "stdout is not '$1'"
}

expect_stderr_has() {
    grep -qF -- "$1" "$ERR" || fail "stderr lacks '$1'"
}

expect_stdout_has() {
    grep -qF -- "$1" "$OUT" || fail "stdout lacks '$1'"
}

# expect_error STATUS CODE: a sandboxio failure, reported with its code and docs page.
expect_error() {
    expect_status "$1"
    expect_stderr_has "sandboxio: $2: "
    expect_stderr_has "  see: "
    grep -q "see: .*$2" "$ERR" || fail "stderr lacks the docs URL of $2"
}

# json_check PYTHON-EXPR: evaluate an assertion on the JSON in $OUT, bound to d.
json_check() {
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ok = eval(sys.argv[2])
if not ok:
    sys.exit("assertion failed: " + sys.argv[2] + "\nJSON: " + json.dumps(d))
' "$OUT" "$1" || fail "JSON check failed: $1"
}

command -v python3 >/dev/null 2>&1 || { echo "ERROR: python3 is needed to parse JSON" >&2; exit 99; }
