#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `run --rm` is accepted for docker's habit and changes nothing: run always
# removes its sandbox.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

sbx run --rm --network open -- echo hello
expect_status 0
[ "$(cat "$OUT")" = hello ] || fail "run --rm did not run the command"
[ ! -s "$ERR" ] || fail "run --rm wrote to stderr"

sbx run --network open --rm --json -- sh -c 'exit 4'
expect_status 4
json_check 'd["exit_code"] == 4'

sbx run --help
grep -q -- '--rm' "$OUT" || fail "run --help does not list --rm"
