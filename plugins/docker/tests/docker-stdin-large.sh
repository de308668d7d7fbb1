#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Standard input larger than one 64 KiB chunk reaches a command that writes
# nothing while it reads (the stream loop once slept on output after each
# chunk it sent, so such a run hung after the first 64 KiB).
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"

OUT="$SBX_DOCKERD_DIR/out"
ERR="$SBX_DOCKERD_DIR/err"
head -c 800000 /dev/zero >"$SBX_DOCKERD_DIR/in"
timeout 60 "$SBX" run --dsn "$DSN" --stdin -- sh -c 'cat >/tmp/x; wc -c </tmp/x' \
    <"$SBX_DOCKERD_DIR/in" >"$OUT" 2>"$ERR" || fail "the run failed or hung ($?): $(cat "$ERR")"
[ "$(tr -d ' ' <"$OUT")" = 800000 ] || fail "the command read $(cat "$OUT") of 800000 bytes"
echo "800000 bytes of stdin read by a silent command"
expect_no_leftovers
echo PASS
