#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# On local://, `sandboxio shell` whose stdin is not a terminal runs sh
# without one, reading stdin as a script: it ends at EOF with the shell's
# status (a pipe: exit 3 and "hi"; /dev/null: 0 at once), and so does
# `shell ID` in a sandbox made by create, which stays. `-t` whose stdin is
# not a terminal is refused at once (SBX_E1018, exit 120), never left to
# hang on a terminal that cannot see EOF. Each call is bounded by timeout(1):
# 124 would be the hang this test is about.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
tmp=$(mktemp -d)
SANDBOXIO_LOCAL_RUNDIR="$tmp/rundir"
export SANDBOXIO_LOCAL_RUNDIR
SBX="$b/src/sandboxio"
id=
cleanup() {
    [ -z "$id" ] || "$SBX" kill --dsn local:// "$id" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*" >&2
    echo "--- stdout:" >&2; cat "$tmp/out" >&2 2>/dev/null || true
    echo "--- stderr:" >&2; cat "$tmp/err" >&2 2>/dev/null || true
    exit 1
}
# expect STATUS STDOUT: how the last call ended.
expect() {
    [ "$status" -eq "$1" ] || fail "exit status $status, expected $1"
    [ "$(cat "$tmp/out")" = "$2" ] || fail "stdout is not '$2'"
}

set +e
printf 'echo hi\nexit 3\n' | timeout 30 "$SBX" shell --dsn local:// >"$tmp/out" 2>"$tmp/err"
status=$?
set -e
expect 3 hi
[ ! -s "$tmp/err" ] || fail "stderr is not empty"

set +e
timeout 30 "$SBX" shell --dsn local:// </dev/null >"$tmp/out" 2>"$tmp/err"
status=$?
set -e
expect 0 ""

# A file, and a script whose last command sets the status.
printf 'x=$((6 * 7))\necho "from-file-$x"\nfalse\n' >"$tmp/script"
set +e
timeout 30 "$SBX" shell --dsn local:// <"$tmp/script" >"$tmp/out" 2>"$tmp/err"
status=$?
set -e
expect 1 from-file-42

# shell ID: the same shell in a sandbox made by create, which outlives it.
id=$("$SBX" create --dsn local:// --ttl 10m)
[ -n "$id" ] || fail "create printed no id"
set +e
printf 'echo kept > kept.txt\necho in-box\nexit 4\n' |
    timeout 30 "$SBX" shell --dsn local:// "$id" >"$tmp/out" 2>"$tmp/err"
status=$?
set -e
expect 4 in-box
[ "$("$SBX" exec --dsn local:// "$id" -- cat kept.txt)" = kept ] || fail "the sandbox lost kept.txt"
"$SBX" kill --dsn local:// "$id" || fail "kill $id failed"
id=

# -t without a terminal: refused before anything runs.
for how in "run -t --dsn local:// -- cat" "run -it --dsn local:// -- cat"; do
    set +e
    # shellcheck disable=SC2086 # how is split on purpose
    echo x | timeout 30 "$SBX" $how >"$tmp/out" 2>"$tmp/err"
    status=$?
    set -e
    expect 120 ""
    grep -qF 'SBX_E1018' "$tmp/err" || fail "$how: stderr lacks SBX_E1018"
    grep -qF 'the input is not a terminal' "$tmp/err" || fail "$how: stderr does not say why"
done
echo "PASS: shell without a terminal reads stdin to its EOF and status (pipe, /dev/null, file, shell ID); -t without one refused (SBX_E1018)"
