#!/bin/sh
# `sandboxio run -it -- sh` on local://, driven through a real terminal
# (tmux): a typed command is answered, the shell sees a terminal of the
# client's size, a resize of the client's window reaches it, ^C goes to the
# command (the client's terminal is raw) and not to sandboxio, and after
# `exit 3` sandboxio exits 3 with the client's terminal mode restored, as
# it is when sandboxio is stopped by SIGTERM; `sandboxio shell` is the
# same interactive shell. `sandboxio shell ID` is that shell in a sandbox
# made by `create` (exec -it ID -- sh): it is answered and resized, and
# after it exits the sandbox and a file written from the shell are still
# there, until `kill`.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
if ! command -v tmux >/dev/null 2>&1; then
    echo "tmux is not installed (scripts/install-deps.sh installs it)" >&2
    [ "${CI:-}" = true ] && exit 1
    exit 77
fi
tmp=$(mktemp -d)
sock="$tmp/tmux.sock"
# The sandboxes made by create: private to this test.
SANDBOXIO_LOCAL_RUNDIR="$tmp/rundir"
export SANDBOXIO_LOCAL_RUNDIR
id=
cleanup() {
    tmux -S "$sock" kill-server 2>/dev/null || true
    [ -z "$id" ] || "$b/src/sandboxio" kill --dsn local:// "$id" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*" >&2
    echo "--- pane:" >&2
    tmux -S "$sock" capture-pane -p -t sbx >&2 2>/dev/null || true
    exit 1
}

# What runs in the terminal: sandboxio, then its status and whether the
# terminal's mode is what it was before.
cat >"$tmp/session.sh" <<SH
#!/bin/sh
before=\$(stty -g)
if [ "\${1:-}" = shell ]; then
    SANDBOXIO_LOCAL_INIT='$SANDBOXIO_LOCAL_INIT' SANDBOXIO_PLUGIN_PATH='$SANDBOXIO_PLUGIN_PATH' \\
        '$b/src/sandboxio' shell --dsn local:// -e PS1='sbx\$ '
elif [ "\${1:-}" = shell-id ]; then
    SANDBOXIO_LOCAL_INIT='$SANDBOXIO_LOCAL_INIT' SANDBOXIO_PLUGIN_PATH='$SANDBOXIO_PLUGIN_PATH' \\
        SANDBOXIO_LOCAL_RUNDIR='$SANDBOXIO_LOCAL_RUNDIR' \\
        '$b/src/sandboxio' shell --dsn local:// -e PS1='sbx\$ ' "\$2"
else
    SANDBOXIO_LOCAL_INIT='$SANDBOXIO_LOCAL_INIT' SANDBOXIO_PLUGIN_PATH='$SANDBOXIO_PLUGIN_PATH' \\
        '$b/src/sandboxio' run --dsn local:// -it -e PS1='sbx\$ ' -- sh
fi
status=\$?
[ "\$(stty -g)" = "\$before" ] && mode=restored || mode=left-changed
echo "sandboxio exited \$status, terminal \$mode"
sleep 600
SH
chmod +x "$tmp/session.sh"

# A session that lives as long as the test keeps the server up: when the
# last session is killed the server exits, and a client started right
# after can reach the dying server ("server exited unexpectedly").
tmux -S "$sock" -f /dev/null new-session -d -s keep "sleep 3600"
tmux -S "$sock" set-option -g status off >/dev/null
tmux -S "$sock" new-session -d -s sbx -x 100 -y 30 "$tmp/session.sh"

# wait_for TEXT: until the pane shows TEXT (20 s at most).
wait_for() {
    i=0
    while ! tmux -S "$sock" capture-pane -p -t sbx | grep -qF -- "$1"; do
        i=$((i + 1))
        [ $i -lt 200 ] || fail "the pane never showed '$1'"
        sleep 0.1
    done
}
type_line() { tmux -S "$sock" send-keys -t sbx -l "$1"; tmux -S "$sock" send-keys -t sbx Enter; }

wait_for 'sbx$'   # (the pane is read without trailing blanks)
type_line 'echo hel""lo-$((6*7))'
wait_for 'hello-42'
type_line 'tty; echo "size: $(stty size)"'
wait_for '/dev/pts/'
wait_for 'size: 30 100'

tmux -S "$sock" resize-window -t sbx -x 120 -y 40
sleep 0.5
type_line 'echo "now: $(stty size)"'
wait_for 'now: 40 120'

# ^C interrupts the sandbox's command, not sandboxio: the shell goes on.
type_line 'sleep 100'
sleep 0.5
tmux -S "$sock" send-keys -t sbx C-c
type_line 'echo still-$((1+1))'
wait_for 'still-2'

type_line 'exit 3'
wait_for 'sandboxio exited 3, terminal restored'

# SIGTERM to sandboxio itself (raw mode on): the run stops, and the
# terminal is put back on that way out too.
tmux -S "$sock" kill-session -t sbx
tmux -S "$sock" new-session -d -s sbx -x 100 -y 30 "$tmp/session.sh"
wait_for 'sbx$'
shell=$(tmux -S "$sock" display-message -p -t sbx '#{pane_pid}')
client=$(ps -o pid= --ppid "$shell" | tr -d ' ' | head -n 1)
[ -n "$client" ] || fail "no sandboxio process under the session's shell $shell"
kill -TERM "$client"
wait_for 'sandboxio exited 143, terminal restored'
# `sandboxio shell` is the same interactive shell.
tmux -S "$sock" kill-session -t sbx
tmux -S "$sock" new-session -d -s sbx -x 100 -y 30 "$tmp/session.sh shell"
wait_for 'sbx$'
type_line 'test -t 0 && echo "in-shell-$((2*3)) $(stty size)"'
wait_for 'in-shell-6 30 100'
type_line 'exit 5'
wait_for 'sandboxio exited 5, terminal restored'

# `sandboxio shell ID`: a shell in a sandbox made by create, which outlives it.
id=$("$b/src/sandboxio" create --dsn local:// --ttl 10m --name tty-box)
[ -n "$id" ] || fail "create printed no id"
tmux -S "$sock" kill-session -t sbx
tmux -S "$sock" new-session -d -s sbx -x 100 -y 30 "$tmp/session.sh shell-id $id"
wait_for 'sbx$'
type_line 'echo kept-$((3*4)) > kept.txt; test -t 0 && echo "named-$(cat kept.txt) $(stty size)"'
wait_for 'named-kept-12 30 100'
tmux -S "$sock" resize-window -t sbx -x 120 -y 40
sleep 0.5
type_line 'echo "named-now: $(stty size)"'
wait_for 'named-now: 40 120'
type_line 'exit 4'
wait_for 'sandboxio exited 4, terminal restored'
"$b/src/sandboxio" ps --dsn local:// >"$tmp/ps"
grep -qF "$id" "$tmp/ps" || fail "sandbox $id is gone after its shell exited: $(cat "$tmp/ps")"
kept=$("$b/src/sandboxio" exec --dsn local:// "$id" -- cat kept.txt) || fail "exec in $id after the shell failed"
[ "$kept" = kept-12 ] || fail "kept.txt holds '$kept', not kept-12"
"$b/src/sandboxio" kill --dsn local:// "$id" || fail "kill $id failed"
"$b/src/sandboxio" ps --dsn local:// >"$tmp/ps"
! grep -qF "$id" "$tmp/ps" || fail "sandbox $id is still listed after kill"
id=
echo "PASS: run -it -- sh, shell and shell ID: typed, answered, resized, ^C to the command, exit and SIGTERM, terminal restored, the named sandbox kept until kill"
