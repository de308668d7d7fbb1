#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio run -it -- sh` on docker://, driven through a real terminal
# (tmux), against a private dockerd: a typed command is answered, the shell
# sees a terminal of the client's size, a resize of the client's window
# reaches it, ^C goes to the command (the client's terminal is raw) and not
# to sandboxio, and after `exit 3` sandboxio exits 3 with the client's
# terminal mode restored; `exec -it ID -- sh` in a sandbox made by create
# is the same, and the sandbox outlives it. Keys typed the moment `shell`,
# `run -it -- sh` or `shell ID` starts, before the container is up, are run
# by the shell. Nothing is left behind.
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

# What runs in the terminal (tty-term.sh reports how it ended).
cat >"$TTY_DIR/session.sh" <<SH
#!/bin/sh
SANDBOXIO_PLUGIN_PATH='$SANDBOXIO_PLUGIN_PATH'
export SANDBOXIO_PLUGIN_PATH
case "\${1:-}" in
exec) exec '$SBX' exec --dsn '$DSN' -it -e PS1='sbx\$ ' "\$2" -- sh ;;
shell) exec '$SBX' shell --dsn '$DSN' ;;
shell-id) exec '$SBX' shell --dsn '$DSN' "\$2" ;;
*) exec '$SBX' run --dsn '$DSN' -it -e PS1='sbx\$ ' -- sh ;;
esac
SH
chmod +x "$TTY_DIR/session.sh"

# type_ahead N [HOW [ID]]: tty_type_ahead on this test's session.
type_ahead() { tty_type_ahead "$TTY_DIR/session.sh" "$@"; }

tty_start
type_ahead 7 shell
type_ahead 8
tty_open "$TTY_DIR/session.sh"
# (30 s for the first prompt: a container starts.)
tty_wait_for 'sbx$' 300
tty_shell_answers_and_resizes

# ^C interrupts the sandbox's command, not sandboxio: the shell goes on.
tty_type 'sleep 100'
sleep 1
tty_tmux send-keys -t sbx C-c
tty_type 'echo "still-$((1+1)) after $?"'
tty_wait_for 'still-2 after 130'

tty_type 'exit 3'
tty_wait_for 'sandboxio exited 3, terminal restored'
expect_no_leftovers

# exec -it in a sandbox made by create: the same shell, and the sandbox stays.
id=$("$SBX" create --dsn "$DSN" --ttl 10m --name tty-box)
[ -n "$id" ] || fail "create printed no id"
tty_open "$TTY_DIR/session.sh" exec "$id"
tty_wait_for 'sbx$' 300
tty_named_shell_session "$TTY_DIR/session.sh" "$id"
kept=$("$SBX" exec --dsn "$DSN" "$id" -- cat kept.txt) || fail "exec in $id after the shell failed"
[ "$kept" = kept-12 ] || fail "kept.txt holds '$kept', not kept-12"
"$SBX" kill --dsn "$DSN" "$id" || fail "kill $id failed"
id=
expect_no_leftovers
echo "PASS: run -it -- sh and exec -it ID -- sh on docker: typed (type-ahead too, shell and shell ID also), answered, resized, ^C to the command, exit status, terminal restored, nothing left behind"
