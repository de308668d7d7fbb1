#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio run --dsn local:// -- sh -c 'sleep 600'` (a command that writes
# nothing) sent SIGTERM exits 143 well before the 600 s (the bound only tells
# "stopped" from "ran on"), and no process of the sandbox is left on the
# host: neither the command (found by a token in its argv) nor the init
# and supervisor between it and sandboxio.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
. "$SBX_TEST_SRCDIR/tests/interrupt-lib.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }

token="sbx-local-interrupt-$$-$(date +%s%N)"
err=$(mktemp)
trap 'rm -f "$err"' EXIT

# The host pid of the sandbox's shell, whose argv holds the token (besides
# sandboxio's own, $pid), or nothing.
command_pid() {
    for f in /proc/[0-9]*/cmdline; do
        p=${f#/proc/}
        p=${p%/cmdline}
        [ "$p" = "$pid" ] && continue
        if tr '\0' ' ' 2>/dev/null <"$f" | grep -q -- "^sh -c sleep 600; : $token"; then
            echo "$p"
            return
        fi
    done
}
ppid_of() { sed -n 's/^PPid:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null; }

"$b/src/sandboxio" run --dsn local:// -- sh -c "sleep 600; : $token" >/dev/null 2>"$err" </dev/null &
pid=$!
i=0
cmd=
while [ -z "$cmd" ]; do
    i=$((i + 1))
    [ "$i" -lt 300 ] || { kill -KILL "$pid"; fail "the command never started: $(cat "$err")"; }
    sleep 0.1
    cmd=$(command_pid)
done
# The sandbox's processes: the command and its ancestors up to sandboxio.
tree=$cmd
p=$(ppid_of "$cmd")
while [ -n "$p" ] && [ "$p" != "$pid" ] && [ "$p" != "$$" ] && [ "$p" -gt 1 ]; do
    tree="$tree $p"
    p=$(ppid_of "$p")
done
echo "sandbox processes: $tree"

sigterm_and_wait "$pid"
echo "interrupted run: exit $status $stop_ms ms after SIGTERM"
[ "$status" -eq 143 ] || fail "exit $status, expected 143: $(cat "$err")"
grep -q "sandboxio: interrupted" "$err" || fail "no interrupt note: $(cat "$err")"
for p in $tree; do
    if [ -d "/proc/$p" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$p/status" 2>/dev/null; then
        fail "process $p of the sandbox outlived the run: $(tr '\0' ' ' <"/proc/$p/cmdline")"
    fi
done
[ -z "$(command_pid)" ] || fail "the command still runs"
echo "PASS"
