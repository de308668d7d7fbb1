#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `-t` whose stdin is not a terminal (a pipe, a file, /dev/null) is a usage
# error, SBX_E1018 with exit 120, given at once: before any backend is
# asked for anything (the test plugin logs no call), for run, run -it and
# exec -t alike. At a terminal the same options go on to the backend.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
use_testcaps

expect_refused() {
    expect_error 120 SBX_E1018
    expect_stderr_has "-t: the input is not a terminal"
    [ ! -e "$SBX_TESTCAPS_LOG" ] || fail "the backend was asked for something: $(cat "$SBX_TESTCAPS_LOG")"
}

sbx run -t --dsn testcaps:// -- prog
expect_refused
sbx_in 'x' run -t --dsn testcaps:// -- prog
expect_refused
sbx_in 'x' run -it --dsn testcaps:// -- prog
expect_refused
sbx run --tty --interactive --dsn testcaps:// -- prog
expect_refused
printf 'data' >"$TMP/file"
set +e
"$SBX" run -t --dsn testcaps:// -- prog <"$TMP/file" >"$OUT" 2>"$ERR"
status=$?
set -e
expect_refused
sbx exec -t testcaps:some-box -- prog
expect_refused
sbx_in 'x' exec -it testcaps:some-box -- prog
expect_refused

# At a terminal -t is taken, and the backend is asked (fake: no pty, E3040).
sbx_tty run -t --dsn fake:// --network open -- true
expect_error 122 SBX_E3040
echo "PASS: -t without a terminal refused at once (SBX_E1018, exit 120, nothing asked of the backend)"
