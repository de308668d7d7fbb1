#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `run -i` streams stdin as it arrives: a command that echoes each line is
# answered line by line while stdin is still open. Piped stdin without -i
# is streamed the same way (it was silently dropped); -i with --stdin is a
# usage error; a terminal-less run with stdin from /dev/null still sees EOF
# at once; a run ends when its command does, even with stdin left open.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
driver="$SBX_TEST_SRCDIR/tests/cli/interactive-echo.py"

python3 "$driver" "$SBX" --network open -i || fail "-i did not stream stdin"
python3 "$driver" "$SBX" --network open --interactive || fail "--interactive did not stream stdin"
python3 "$driver" "$SBX" --network open || fail "piped stdin without -i was not streamed"

sbx_in "whole" run --network open --stdin -- cat
expect_status 0
expect_stdout "whole"
sbx run --network open -i --stdin -- cat
expect_error 120 SBX_E1018
sbx run --network open -- sh -c 'cat; echo eof'
expect_status 0
expect_stdout "eof"

# The command exits while its stdin (a pipe nobody closes) is still open:
# the run ends with it, and does not wait for that stdin to end.
mkfifo "$TMP/in"
sleep 30 >"$TMP/in" &
holder=$!
set +e
timeout 20 "$SBX" run --network open -- sh -c 'echo done' <"$TMP/in" >"$OUT" 2>"$ERR"
status=$?
set -e
kill "$holder" 2>/dev/null || true
expect_status 0
expect_stdout "done"

# A backend that cannot take stdin refuses piped stdin (never drops it), and
# says how to run without it.
use_testcaps
SBX_TESTCAPS_CAPS=81
export SBX_TESTCAPS_CAPS
sbx_in "data" run --dsn testcaps:// -- prog
expect_error 122 SBX_E3011
expect_stderr_has "(stdin is a pipe or a file, so it is passed on; run with </dev/null to leave it)"
sbx run --dsn testcaps:// -- prog
expect_status 0
