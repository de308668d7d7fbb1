#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `exec -t` and `shell ID` at a terminal, on a backend without terminals
# (fake: no 'pty' capability), are refused with SBX_E3040 (exit 122) and the
# sandbox stays, usable; without a terminal `shell ID` runs sh on none,
# reading stdin as a script; a shell in sandbox ID takes exec's options, not
# run's policy ones (SBX_E1018), and an unknown ID is SBX_E4004.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
# A private TMPDIR: the fake keeps sandboxes there, other tests list theirs.
TMPDIR="$TMP/t"; mkdir "$TMPDIR"; export TMPDIR

sbx create --network open --name box
expect_status 0
id=$(cat "$OUT")

sbx_tty exec -t "$id" -- true
expect_error 122 SBX_E3040
expect_stderr_has "backend 'fake' does not declare the 'pty' capability"
sbx_tty exec -it box -- sh
expect_error 122 SBX_E3040
sbx_tty shell "$id"
expect_error 122 SBX_E3040
sbx_tty shell -e A=b -w . box
expect_error 122 SBX_E3040
sbx_in 'echo "in-$A"; exit 6' shell -e A=box box
expect_status 6
expect_stdout "in-box"

sbx shell --network open box
expect_error 120 SBX_E1018
expect_stderr_has "'--network' is not an option of a shell in sandbox ID"
sbx shell box extra
expect_error 120 SBX_E1018
sbx shell no-such-box
expect_error 123 SBX_E4004

# Refused, not ended: the sandbox still runs commands.
sbx exec box -- sh -c 'echo still-here'
expect_status 0
expect_stdout "still-here"
sbx kill "$id"
expect_status 0
echo "PASS: exec -t and shell ID refused without pty (E3040), options checked, sandbox kept"
