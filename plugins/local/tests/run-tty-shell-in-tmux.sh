#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio run -it -- sh` on local://, driven through a real terminal
# (tmux): a typed command is answered, the shell sees a terminal of the
# client's size, a resize of the client's window reaches it, ^C goes to the
# command (the client's terminal is raw) and not to sandboxio, and after
# `exit 3` sandboxio exits 3 with the client's terminal mode restored, as
# it is when sandboxio is stopped by SIGTERM; `sandboxio shell` is the
# same interactive shell. `sandboxio shell ID` is that shell in a sandbox
# made by `create` (exec -it ID -- sh): it is answered and resized, and
# after it exits the sandbox and a file written from the shell are still
# there, until `kill`. Keys typed the moment any of the three starts, before
# the shell is up (before the sandbox is even made), are run by the shell:
# the plugin holds stdin until the command's terminal has come.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
if ! command -v tmux >/dev/null 2>&1; then
    echo "tmux is not installed (scripts/install-deps.sh installs it)" >&2
    [ "${CI:-}" = true ] && exit 1
    exit 77
fi
tmp=$(mktemp -d)
TTY_DIR=$tmp
. "$SBX_TEST_SRCDIR/tests/tty-lib.sh"
# The sandboxes made by create: private to this test.
SANDBOXIO_LOCAL_RUNDIR="$tmp/rundir"
export SANDBOXIO_LOCAL_RUNDIR
id=
cleanup() {
    tty_stop
    [ -z "$id" ] || "$b/src/sandboxio" kill --dsn local:// "$id" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# What runs in the terminal (tty-term.sh reports how it ended).
cat >"$tmp/session.sh" <<SH
#!/bin/sh
SANDBOXIO_LOCAL_INIT='$SANDBOXIO_LOCAL_INIT' SANDBOXIO_PLUGIN_PATH='$SANDBOXIO_PLUGIN_PATH'
SANDBOXIO_LOCAL_RUNDIR='$SANDBOXIO_LOCAL_RUNDIR'
export SANDBOXIO_LOCAL_INIT SANDBOXIO_PLUGIN_PATH SANDBOXIO_LOCAL_RUNDIR
case "\${1:-}" in
shell) exec '$b/src/sandboxio' shell --dsn local:// -e PS1='sbx\$ ' ;;
shell-id) exec '$b/src/sandboxio' shell --dsn local:// -e PS1='sbx\$ ' "\$2" ;;
*) exec '$b/src/sandboxio' run --dsn local:// -it -e PS1='sbx\$ ' -- sh ;;
esac
SH
chmod +x "$tmp/session.sh"

# type_ahead N [HOW [ID]]: tty_type_ahead on this test's session.
type_ahead() { tty_type_ahead "$tmp/session.sh" "$@"; }

tty_start
type_ahead 7 shell
type_ahead 8
tty_open "$tmp/session.sh"

tty_wait_for 'sbx$'   # (the pane is read without trailing blanks)
tty_shell_answers_and_resizes

# ^C interrupts the sandbox's command, not sandboxio: the shell goes on.
tty_type 'sleep 100'
sleep 0.5
tty_tmux send-keys -t sbx C-c
tty_type 'echo still-$((1+1))'
tty_wait_for 'still-2'

tty_type 'exit 3'
tty_wait_for 'sandboxio exited 3, terminal restored'

# SIGTERM to sandboxio itself (raw mode on): the run stops, and the
# terminal is put back on that way out too.
tty_open "$tmp/session.sh"
tty_wait_for 'sbx$'
client=$(tty_client_pid)
[ -n "$client" ] || fail "no sandboxio process under the session's terminal"
kill -TERM "$client"
tty_wait_for 'sandboxio exited 143, terminal restored'
# `sandboxio shell` is the same interactive shell.
tty_open "$tmp/session.sh" shell
tty_wait_for 'sbx$'
tty_type 'test -t 0 && echo "in-shell-$((2*3)) $(stty size)"'
tty_wait_for 'in-shell-6 30 100'
tty_type 'exit 5'
tty_wait_for 'sandboxio exited 5, terminal restored'

# `sandboxio shell ID`: a shell in a sandbox made by create, which outlives it.
id=$("$b/src/sandboxio" create --dsn local:// --ttl 10m --name tty-box)
[ -n "$id" ] || fail "create printed no id"
tty_open "$tmp/session.sh" shell-id "$id"
tty_wait_for 'sbx$'
tty_named_shell_session "$tmp/session.sh" "$id"
"$b/src/sandboxio" ps --dsn local:// >"$tmp/ps"
grep -qF "$id" "$tmp/ps" || fail "sandbox $id is gone after its shell exited: $(cat "$tmp/ps")"
kept=$("$b/src/sandboxio" exec --dsn local:// "$id" -- cat kept.txt) || fail "exec in $id after the shell failed"
[ "$kept" = kept-12 ] || fail "kept.txt holds '$kept', not kept-12"
"$b/src/sandboxio" kill --dsn local:// "$id" || fail "kill $id failed"
"$b/src/sandboxio" ps --dsn local:// >"$tmp/ps"
! grep -qF "$id" "$tmp/ps" || fail "sandbox $id is still listed after kill"
id=
echo "PASS: run -it -- sh, shell and shell ID: typed (type-ahead too), answered, resized, ^C to the command, exit and SIGTERM, terminal restored, the named sandbox kept until kill"
