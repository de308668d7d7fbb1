#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio run --dsn local://` of a program that is not found exits 127
# (SBX_E5011), of one that cannot be executed 126 (SBX_E5012), as a shell
# does. A missing working directory is made, as `docker run -w` does (a
# working directory that cannot be, through a file, is 125 SBX_E5004:
# test_local_exec).
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
err=$(mktemp)
trap 'rm -f "$err"' EXIT
fail() { echo "FAIL: $*" >&2; cat "$err" >&2; exit 1; }

# expect STATUS CODE ARGS...
expect() {
    want=$1 code=$2; shift 2
    set +e
    "$b/src/sandboxio" run --dsn local:// "$@" >/dev/null 2>"$err" </dev/null
    status=$?
    set -e
    [ "$status" -eq "$want" ] || fail "run $*: exit $status, expected $want"
    grep -q "sandboxio: $code: " "$err" || fail "run $*: no $code"
}
expect 127 SBX_E5011 -- no-such-program-sbx
expect 127 SBX_E5011 -- /nonexistent/program
expect 126 SBX_E5012 -- /etc/passwd
expect 126 SBX_E5012 -- /etc
out=$("$b/src/sandboxio" run --dsn local:// --cwd no-such-dir/deeper -- pwd 2>"$err" </dev/null) ||
    fail "run --cwd no-such-dir/deeper: exit $?, expected 0 (the directory made)"
case "$out" in */no-such-dir/deeper) ;; *) fail "run --cwd no-such-dir/deeper ran in '$out'" ;; esac
echo "PASS: 127 and 126 as a shell has them; a missing working directory is made"
