#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# On local://, keys typed at a real terminal (tmux) before the shell is up
# are not lost: lines sent the moment `sandboxio shell`, `shell ID` and
# `run -it -- sh` start (before sandboxio has even made the sandbox) are
# run by the shell, whose `exit N` then ends sandboxio with N. (The plugin
# holds stdin until the command's terminal has come: what it took before
# went to a socket the supervisor closes.)
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

cat >"$tmp/session.sh" <<SH
#!/bin/sh
SANDBOXIO_LOCAL_INIT='$SANDBOXIO_LOCAL_INIT' SANDBOXIO_PLUGIN_PATH='$SANDBOXIO_PLUGIN_PATH'
SANDBOXIO_LOCAL_RUNDIR='$SANDBOXIO_LOCAL_RUNDIR'
export SANDBOXIO_LOCAL_INIT SANDBOXIO_PLUGIN_PATH SANDBOXIO_LOCAL_RUNDIR
case "\$1" in
shell) exec '$b/src/sandboxio' shell --dsn local:// ;;
shell-id) exec '$b/src/sandboxio' shell --dsn local:// "\$2" ;;
run) exec '$b/src/sandboxio' run --dsn local:// -it -- sh ;;
esac
SH
chmod +x "$tmp/session.sh"

# type_ahead N HOW [ID]: open the session and type at once, without waiting
# for a prompt; the shell must run both lines.
type_ahead() {
    n=$1; shift
    tty_open "$tmp/session.sh" "$@"
    tty_type "echo typed-$n-\$((6*7))"
    tty_type "exit $n"
    tty_wait_for "sandboxio exited $n, terminal restored"
    tty_wait_for "typed-$n-42" 1
}

tty_start
type_ahead 7 shell
type_ahead 8 run
id=$("$b/src/sandboxio" create --dsn local:// --ttl 10m)
[ -n "$id" ] || fail "create printed no id"
type_ahead 9 shell-id "$id"
"$b/src/sandboxio" kill --dsn local:// "$id" || fail "kill $id failed"
id=
echo "PASS: keys typed before the shell is up are run (shell, run -it, shell ID)"
