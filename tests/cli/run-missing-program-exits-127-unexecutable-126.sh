#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Like a shell and `docker run`: a program that is not found exits 127
# (SBX_E5011), one found but not executable 126 (SBX_E5012), in text and
# --json mode alike.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

sbx run --network open -- /nonexistent/program
expect_error 127 SBX_E5011
sbx run --network open -- no-such-program-sbx
expect_error 127 SBX_E5011
sbx run --network open --json -- /nonexistent/program
expect_status 127
expect_stdout_has SBX_E5011

# Not executable: a plain file, and a directory.
sbx run --network open -- /etc/passwd
expect_error 126 SBX_E5012
sbx run --network open -- /etc
expect_error 126 SBX_E5012
