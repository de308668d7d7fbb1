#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# When nobody reads run's stdout any more, run stops the command, destroys
# the sandbox and exits 125 (SBX_E5005) instead of dying of SIGPIPE.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

# yes(1) writes forever: only the closed pipe can stop it (the timeout is a
# safety net that would make this test fail with 124).
{
    set +e
    "$SBX" run --network open --timeout 20 -- yes 2>"$ERR" </dev/null
    echo $? >"$TMP/status"
} | head -n 2 >"$OUT"

status=$(cat "$TMP/status")
expect_error 125 SBX_E5005
expect_stderr_has "Broken pipe"
[ "$(wc -l <"$OUT")" -eq 2 ] || fail "head did not get its two lines"
