#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio demo` prints each step and its command line before running it,
# and each does what it shows: a command runs, a policy beyond the backend
# is refused (SBX_E3001), a timeout kills the tree, a file survives between
# two commands of one sandbox; within half a minute, exit 0. On the fake
# backend here (network open, said so); on local in plugins/local/tests.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

start=$(date +%s)
sbx demo
expect_status 0
[ $(($(date +%s) - start)) -lt 30 ] || fail "the demo took more than half a minute"
expect_stdout_has "sandboxio demo on fake://: isolation tier none, network open (this backend cannot cut it"
expect_stdout_has "1. Run a command in a fresh sandbox"
expect_stdout_has "   \$ sandboxio run -- sh -c 'echo \"hello from \$(uname -n)\"'"
expect_stdout_has "     | hello from "
expect_stdout_has "2. Ask for more isolation than the backend has"
expect_stdout_has "   -> refused: SBX_E3001: "
expect_stdout_has "(exit 122)"
expect_stdout_has "3. A timeout kills the command"
expect_stdout_has "   -> killed at its timeout after 1."
expect_stdout_has "4. One sandbox, two commands"
expect_stdout_has "     | kept between commands"
expect_stdout_has "Done: 4 steps in "
# Each step is printed before what it runs shows.
awk '/^1\. /{a=NR} /hello from/{b=NR} /^4\. /{c=NR} /kept between/{d=NR} END{exit !(a<b && c<d)}' "$OUT" ||
    fail "a step's output came before its description"

sbx demo --dsn nope://
expect_error 121 SBX_E2001
sbx demo extra
expect_error 120 SBX_E1018
