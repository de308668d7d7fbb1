#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# On local://, `run -i` streams stdin as it arrives: each line a command
# echoes is answered while stdin is still open (the plugin waits on the
# core's input_ready_fd, so output keeps flowing between keystrokes), and
# piped stdin without -i is streamed the same way.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
driver="$SBX_TEST_SRCDIR/tests/cli/interactive-echo.py"
command -v python3 >/dev/null 2>&1 || { echo "ERROR: python3 is needed" >&2; exit 99; }
python3 "$driver" "$b/src/sandboxio" --dsn local:// -i
python3 "$driver" "$b/src/sandboxio" --dsn local://
echo "PASS: local:// streams stdin line by line"
