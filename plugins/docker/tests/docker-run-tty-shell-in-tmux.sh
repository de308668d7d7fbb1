#!/bin/sh
# `sandboxio run -it -- sh` on docker://, driven through a real terminal
# (tmux), against a private dockerd: a typed command is answered, the shell
# sees a terminal of the client's size, a resize of the client's window
# reaches it, ^C goes to the command (the client's terminal is raw) and not
# to sandboxio, and after `exit 3` sandboxio exits 3 with the client's
# terminal mode restored; `exec -it ID -- sh` in a sandbox made by create
# is the same, and the sandbox outlives it. Nothing is left behind.
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"
command -v tmux >/dev/null 2>&1 || skip "tmux is not installed (scripts/install-deps.sh installs it)"

tmp="$SBX_DOCKERD_DIR/tty"
mkdir -p "$tmp"
sock="$tmp/tmux.sock"
id=
tty_cleanup() {
    tmux -S "$sock" kill-server 2>/dev/null || true
    [ -z "$id" ] || "$SBX" kill --dsn "$DSN" "$id" >/dev/null 2>&1 || true
    dockerd_stop
}
trap tty_cleanup EXIT
pane_fail() {
    echo "--- pane:" >&2
    tmux -S "$sock" capture-pane -p -t sbx >&2 2>/dev/null || true
    fail "$@"
}

# What runs in the terminal: sandboxio, then its status and whether the
# terminal's mode is what it was before.
cat >"$tmp/session.sh" <<SH
#!/bin/sh
before=\$(stty -g)
if [ "\${1:-}" = exec ]; then
    SANDBOXIO_PLUGIN_PATH='$SANDBOXIO_PLUGIN_PATH' \\
        '$SBX' exec --dsn '$DSN' -it -e PS1='sbx\$ ' "\$2" -- sh
else
    SANDBOXIO_PLUGIN_PATH='$SANDBOXIO_PLUGIN_PATH' \\
        '$SBX' run --dsn '$DSN' -it -e PS1='sbx\$ ' -- sh
fi
status=\$?
[ "\$(stty -g)" = "\$before" ] && mode=restored || mode=left-changed
echo "sandboxio exited \$status, terminal \$mode"
sleep 600
SH
chmod +x "$tmp/session.sh"

# A session that keeps the tmux server up between the test's sessions: when
# the last one is killed the server exits, and a client started right after
# can reach the dying server.
tmux -S "$sock" -f /dev/null new-session -d -s keep "sleep 3600"
tmux -S "$sock" set-option -g status off >/dev/null
tmux -S "$sock" new-session -d -s sbx -x 100 -y 30 "$tmp/session.sh"

# wait_for TEXT: until the pane shows TEXT (30 s at most: a container starts).
wait_for() {
    i=0
    while ! tmux -S "$sock" capture-pane -p -t sbx | grep -qF -- "$1"; do
        i=$((i + 1))
        [ $i -lt 300 ] || pane_fail "the pane never showed '$1'"
        sleep 0.1
    done
}
type_line() { tmux -S "$sock" send-keys -t sbx -l "$1"; tmux -S "$sock" send-keys -t sbx Enter; }

wait_for 'sbx$'
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
sleep 1
tmux -S "$sock" send-keys -t sbx C-c
type_line 'echo "still-$((1+1)) after $?"'
wait_for 'still-2 after 130'

type_line 'exit 3'
wait_for 'sandboxio exited 3, terminal restored'
expect_no_leftovers

# exec -it in a sandbox made by create: the same shell, and the sandbox stays.
id=$("$SBX" create --dsn "$DSN" --ttl 10m --name tty-box)
[ -n "$id" ] || fail "create printed no id"
tmux -S "$sock" kill-session -t sbx
tmux -S "$sock" new-session -d -s sbx -x 100 -y 30 "$tmp/session.sh exec $id"
wait_for 'sbx$'
type_line 'echo kept-$((3*4)) > kept.txt; test -t 0 && echo "named-$(cat kept.txt) $(stty size)"'
wait_for 'named-kept-12 30 100'
tmux -S "$sock" resize-window -t sbx -x 120 -y 40
sleep 0.5
type_line 'echo "named-now: $(stty size)"'
wait_for 'named-now: 40 120'
type_line 'exit 4'
wait_for 'sandboxio exited 4, terminal restored'
kept=$("$SBX" exec --dsn "$DSN" "$id" -- cat kept.txt) || fail "exec in $id after the shell failed"
[ "$kept" = kept-12 ] || fail "kept.txt holds '$kept', not kept-12"
"$SBX" kill --dsn "$DSN" "$id" || fail "kill $id failed"
id=
expect_no_leftovers
echo "PASS: run -it -- sh and exec -it ID -- sh on docker: typed, answered, resized, ^C to the command, exit status, terminal restored, nothing left behind"
