#!/bin/sh
# `run --network open` on fake:// runs the command and streams its output
# to our own stdout and stderr; stdin reaches it only with --stdin.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

sbx run --dsn fake:// --network open -- echo hello sandbox
expect_status 0
expect_stdout "hello sandbox"
[ ! -s "$ERR" ] || fail "unexpected stderr"

sbx run --dsn fake:// --network open -- sh -c 'echo to-out; echo to-err >&2'
expect_status 0
expect_stdout "to-out"
[ "$(cat "$ERR")" = "to-err" ] || fail "stderr is not the command's"

# The default backend (no --dsn, no SANDBOXIO_DSN) is the fake for now.
sbx run --network open -- echo default backend
expect_status 0
expect_stdout "default backend"

sbx_in "fed through" run --network open --stdin -- cat
expect_status 0
expect_stdout "fed through"

# Without --stdin the command sees EOF at once, even if ours has data.
sbx_in "must not arrive" run --network open -- cat
expect_status 0
expect_stdout ""
