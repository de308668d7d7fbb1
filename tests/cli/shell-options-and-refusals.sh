#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio shell` is run -it -- sh: at a terminal, on a backend without
# terminals, it is refused before anything runs (SBX_E3040, exit 122);
# without a terminal it runs sh on none, reading stdin as a script (so on
# the fake too), to its status; --json and --stdin contradict it, and run's
# --fresh is none of its options. (A shell in sandbox ID: exec-tty-refused-without-pty.sh;
# the shell itself is driven through tmux on local:
# plugins/local/tests/run-tty-shell-in-tmux.sh.)
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

sbx_tty shell --network open
expect_error 122 SBX_E3040
expect_stderr_has "backend 'fake' does not declare the 'pty' capability"
sbx_tty run -t --network open -- true
expect_error 122 SBX_E3040
sbx shell --network open
expect_status 0
expect_stdout ""
sbx_in 'echo "no-tty-$((6*7))"; exit 5' shell --network open
expect_status 5
expect_stdout "no-tty-42"
sbx shell --network open --json
expect_error 120 SBX_E1018
sbx shell --network open --stdin
expect_error 120 SBX_E1018
sbx shell --network open box1 box2
expect_error 120 SBX_E1018
# run's --fresh is no option of shell: its sandbox is always made for it.
sbx shell --network open --fresh
expect_error 120 SBX_E1018
expect_stderr_has "--fresh is not an option of shell"
sbx shell --help
expect_status 0
expect_stdout_has "Usage: sandboxio shell [OPTIONS] [ID]"
sbx --help
expect_stdout_has "shell"
