#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The command gets no variable of ours unless --env or --env-pass gives it.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

SBX_CLI_LEAK=from-host
export SBX_CLI_LEAK

sbx run --network open -- sh -c 'echo "${SBX_CLI_LEAK-unset}"'
expect_status 0
expect_stdout "unset"

sbx run --network open --env-pass SBX_CLI_LEAK -- sh -c 'echo "$SBX_CLI_LEAK"'
expect_status 0
expect_stdout "from-host"

sbx run --network open --env GREETING=a=b -- sh -c 'echo "$GREETING"'
expect_status 0
expect_stdout "a=b"

# An unset variable named by --env-pass is simply not passed.
unset SBX_CLI_LEAK
sbx run --network open --env-pass SBX_CLI_LEAK -- sh -c 'echo "${SBX_CLI_LEAK-unset}"'
expect_status 0
expect_stdout "unset"
