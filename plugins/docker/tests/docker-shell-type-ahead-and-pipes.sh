#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# On docker://, against a private dockerd: `sandboxio shell` whose stdin is
# a pipe or /dev/null runs sh without a terminal, reading stdin as a
# script, and ends at its EOF with the shell's status (exit 3 and "hi";
# 0), as does `shell ID`; `-t` without a terminal is refused at once
# (SBX_E1018, exit 120). At a real terminal (tmux), keys typed the moment
# `shell`, `run -it -- sh` or `shell ID` start, before the container is up,
# are run by the shell. Nothing is left behind.
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"
command -v tmux >/dev/null 2>&1 || skip "tmux is not installed (scripts/install-deps.sh installs it)"

TTY_DIR="$SBX_DOCKERD_DIR/tty"
mkdir -p "$TTY_DIR"
. "$SBX_TEST_SRCDIR/tests/tty-lib.sh"
id=
tty_cleanup() {
    tty_stop
    [ -z "$id" ] || "$SBX" kill --dsn "$DSN" "$id" >/dev/null 2>&1 || true
    dockerd_stop
}
trap tty_cleanup EXIT
out="$TTY_DIR/out" err="$TTY_DIR/err"
# expect STATUS STDOUT: how the last call ended.
expect() {
    [ "$status" -eq "$1" ] || fail "exit status $status, expected $1 (stderr: $(cat "$err"))"
    [ "$(cat "$out")" = "$2" ] || fail "stdout is '$(cat "$out")', not '$2'"
}

# Pipes: bounded by timeout(1), whose 124 would be the hang.
set +e
printf 'echo hi\nexit 3\n' | timeout 60 "$SBX" shell --dsn "$DSN" >"$out" 2>"$err"
status=$?
set -e
expect 3 hi
set +e
timeout 60 "$SBX" shell --dsn "$DSN" </dev/null >"$out" 2>"$err"
status=$?
set -e
expect 0 ""
set +e
echo x | timeout 60 "$SBX" run -t --dsn "$DSN" -- cat >"$out" 2>"$err"
status=$?
set -e
expect 120 ""
grep -qF SBX_E1018 "$err" || fail "run -t with a pipe: stderr lacks SBX_E1018"
expect_no_leftovers

id=$("$SBX" create --dsn "$DSN" --ttl 10m)
[ -n "$id" ] || fail "create printed no id"
set +e
printf 'echo in-box\nexit 4\n' | timeout 60 "$SBX" shell --dsn "$DSN" "$id" >"$out" 2>"$err"
status=$?
set -e
expect 4 in-box

# Type-ahead at a terminal.
cat >"$TTY_DIR/session.sh" <<SH
#!/bin/sh
SANDBOXIO_PLUGIN_PATH='$SANDBOXIO_PLUGIN_PATH'
export SANDBOXIO_PLUGIN_PATH
case "\$1" in
shell) exec '$SBX' shell --dsn '$DSN' ;;
shell-id) exec '$SBX' shell --dsn '$DSN' "\$2" ;;
run) exec '$SBX' run --dsn '$DSN' -it -- sh ;;
esac
SH
chmod +x "$TTY_DIR/session.sh"
# type_ahead N HOW [ID]: open the session and type at once, without waiting
# for a prompt; the shell must run both lines.
type_ahead() {
    n=$1; shift
    tty_open "$TTY_DIR/session.sh" "$@"
    tty_type "echo typed-$n-\$((6*7))"
    tty_type "exit $n"
    tty_wait_for "sandboxio exited $n, terminal restored" 300
    tty_wait_for "typed-$n-42" 1
}
tty_start
type_ahead 7 shell
type_ahead 8 run
type_ahead 9 shell-id "$id"
"$SBX" kill --dsn "$DSN" "$id" || fail "kill $id failed"
id=
expect_no_leftovers
echo "PASS: docker: shell reads a pipe or /dev/null to its EOF and status (shell ID too), -t without a terminal refused, type-ahead run by shell, run -it and shell ID"
