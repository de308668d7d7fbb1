#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio run --dsn local://` of a program that is not found exits 127
# (SBX_E5011), of one that cannot be executed 126 (SBX_E5012), as a shell
# does; a missing working directory stays 125 (SBX_E5004).
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
expect 125 SBX_E5004 --cwd no-such-dir -- true
echo "PASS: 127, 126 and 125 as a shell has them"
