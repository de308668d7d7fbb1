#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# On local://, `sandboxio shell` whose stdin is not a terminal runs sh
# without one, reading stdin as a script: it ends at EOF with the shell's
# status (a pipe: exit 3 and "hi"; /dev/null: 0 at once; a file), and so
# does `shell ID` in a sandbox made by create, which stays. `-t` whose
# stdin is not a terminal is refused at once (SBX_E1018, exit 120), never
# left to hang on a terminal that cannot see EOF. Every call is bounded by
# timeout(1): its 124 would be the hang this test is about.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
SANDBOXIO_DSN=local://
SANDBOXIO_LOCAL_RUNDIR="$TMP/rundir"
export SANDBOXIO_LOCAL_RUNDIR
printf '#!/bin/sh\nexec timeout 30 "%s" "$@"\n' "$SBX" >"$TMP/sandboxio"
chmod +x "$TMP/sandboxio"
real=$SBX SBX="$TMP/sandboxio"
id=
trap '[ -z "$id" ] || "$real" kill "$id" >/dev/null 2>&1; rm -rf "$TMP"' EXIT

sbx_in 'echo hi
exit 3
' shell
expect_status 3
expect_stdout hi
[ ! -s "$ERR" ] || fail "stderr is not empty"
sbx shell
expect_status 0
expect_stdout ""
# A file, and a script whose last command sets the status.
printf 'x=$((6 * 7))\necho "from-file-$x"\nfalse\n' >"$TMP/script"
set +e
"$SBX" shell <"$TMP/script" >"$OUT" 2>"$ERR"
status=$?
set -e
expect_status 1
expect_stdout from-file-42

# shell ID: the same shell in a sandbox made by create, which outlives it.
sbx create --ttl 10m
expect_status 0
id=$(cat "$OUT")
sbx_in 'echo kept > kept.txt
echo in-box
exit 4
' shell "$id"
expect_status 4
expect_stdout in-box
sbx exec "$id" -- cat kept.txt
expect_stdout kept
sbx kill "$id"
expect_status 0
id=

# -t without a terminal: refused before anything runs.
sbx_in x run -t -- cat
expect_error 120 SBX_E1018
expect_stderr_has "the input is not a terminal"
sbx_in x run -it -- cat
expect_error 120 SBX_E1018
echo "PASS: shell without a terminal reads stdin to its EOF and status (pipe, /dev/null, file, shell ID); -t without one refused (SBX_E1018)"
