#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Run "$@" on this terminal (a tmux pane of tests/tty-lib.sh), then say its
# exit status and whether the terminal's mode is what it was before, and
# stay so that the pane can be read.
before=$(stty -g)
"$@"
status=$?
[ "$(stty -g)" = "$before" ] && mode=restored || mode=left-changed
echo "sandboxio exited $status, terminal $mode"
sleep 600
