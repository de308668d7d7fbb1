# SPDX-License-Identifier: Apache-2.0
# Sourced by the tests that drive sandboxio through a real terminal, not
# run: a private tmux server on $TTY_DIR/tmux.sock (TTY_DIR: a directory of
# the test's own), one session "sbx" at a time whose pane runs a command
# under tests/tty-term.sh, and what that pane shows. Needs the caller's
# fail(); tmux must be installed (the caller skips or fails without it).
tty_sock="$TTY_DIR/tmux.sock"
tty_term="${SBX_TEST_SRCDIR:?}/tests/tty-term.sh"

tty_tmux() { tmux -S "$tty_sock" "$@"; }

# The server, with a session kept as long as the test runs: when the last
# session is killed the server exits, and a client started right after can
# reach the dying server ("server exited unexpectedly").
tty_start() {
    tty_tmux -f /dev/null new-session -d -s keep "sleep 3600"
    tty_tmux set-option -g status off >/dev/null
}

tty_stop() { tty_tmux kill-server 2>/dev/null || true; }

# tty_open SCRIPT [ARGS...]: session "sbx" (100 x 30, replacing the last one)
# runs SCRIPT ARGS on its terminal, then says how it ended (tty-term.sh).
tty_open() {
    tty_tmux kill-session -t sbx 2>/dev/null || true
    tty_tmux new-session -d -s sbx -x 100 -y 30 "$tty_term $*"
}

# What the pane shows, for a failure's report.
tty_pane() {
    echo "--- pane:" >&2
    tty_tmux capture-pane -p -t sbx >&2 2>/dev/null || true
}

# tty_wait_for TEXT [TENTHS]: until the pane shows TEXT (default 20 s).
tty_wait_for() {
    i=0
    while ! tty_tmux capture-pane -p -t sbx | grep -qF -- "$1"; do
        i=$((i + 1))
        [ $i -lt "${2:-200}" ] || { tty_pane; fail "the pane never showed '$1'"; }
        sleep 0.1
    done
}

# tty_type LINE: type LINE, then Enter.
tty_type() {
    tty_tmux send-keys -t sbx -l "$1"
    tty_tmux send-keys -t sbx Enter
}

# tty_resize COLS ROWS: the client's window changes size.
tty_resize() { tty_tmux resize-window -t sbx -x "$1" -y "$2"; }

# The pid of the program tty-term.sh runs (sandboxio, once SCRIPT exec'd it).
tty_client_pid() {
    ps -o pid= --ppid "$(tty_tmux display-message -p -t sbx '#{pane_pid}')" | tr -d ' ' | head -n 1
}

# The shell at the prompt of session "sbx" (100 x 30) answers a typed
# command on a terminal (/dev/pts/N) of the pane's size, and sees the
# window grow to 120 x 40.
tty_shell_answers_and_resizes() {
    tty_type 'echo hel""lo-$((6*7))'
    tty_wait_for 'hello-42'
    tty_type 'tty; echo "size: $(stty size)"'
    tty_wait_for '/dev/pts/'
    tty_wait_for 'size: 30 100'
    tty_resize 120 40
    sleep 0.5
    tty_type 'echo "now: $(stty size)"'
    tty_wait_for 'now: 40 120'
}

# tty_type_ahead SESSION N [HOW [ID]]: open SESSION (a session script) and
# type at once, without waiting for a prompt; the shell must run both lines.
tty_type_ahead() {
    ta_session=$1 ta_n=$2; shift 2
    tty_open "$ta_session" "$@"
    tty_type "echo typed-$ta_n-\$((6*7))"
    tty_type "exit $ta_n"
    tty_wait_for "sandboxio exited $ta_n, terminal restored" 300
    tty_wait_for "typed-$ta_n-42" 1
}

# tty_named_shell_session SESSION ID: at the prompt of a shell in the named
# sandbox ID (30 x 100), write a file, see the window grow to 40 x 120, exit
# 4; then type ahead into a new shell of ID. The file stays for the caller.
tty_named_shell_session() {
    tty_type 'echo kept-$((3*4)) > kept.txt; test -t 0 && echo "named-$(cat kept.txt) $(stty size)"'
    tty_wait_for 'named-kept-12 30 100'
    tty_resize 120 40
    sleep 0.5
    tty_type 'echo "named-now: $(stty size)"'
    tty_wait_for 'named-now: 40 120'
    tty_type 'exit 4'
    tty_wait_for 'sandboxio exited 4, terminal restored'
    tty_type_ahead "$1" 9 shell-id "$2"
}
