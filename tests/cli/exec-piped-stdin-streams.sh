#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# exec streams piped stdin to the command without -i, as run does; a
# /dev/null stdin (no -i) still gives EOF at once.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
# A private TMPDIR: the fake keeps sandboxes there.
TMPDIR="$TMP/t"; mkdir "$TMPDIR"; export TMPDIR

sbx create --network open --ttl 10m
expect_status 0
id=$(cat "$OUT")

sbx_in 'piped in' exec "$id" -- cat
expect_status 0
expect_stdout "piped in"

printf 'from a file' >"$TMP/in"
set +e
"$SBX" exec "$id" -- cat <"$TMP/in" >"$OUT" 2>"$ERR"
status=$?
set -e
expect_status 0
expect_stdout "from a file"

sbx exec "$id" -- cat
expect_status 0
expect_stdout ""

sbx kill "$id"
expect_status 0
