#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run exits with the command's status, and with 128+N when signal N killed it.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

sbx run --network open -- sh -c 'exit 7'
expect_status 7
[ ! -s "$ERR" ] || fail "a plain non-zero exit is not a sandboxio error"

sbx run --network open -- sh -c 'exit 0'
expect_status 0

sbx run --network open -- sh -c 'kill -9 $$'
expect_status 137

sbx run --network open -- sh -c 'kill -TERM $$'
expect_status 143

# A command that cannot be started is the command's failure, not ours.
sbx run --network open -- /nonexistent/program
[ "$status" -ne 0 ] || fail "a missing program succeeded"
