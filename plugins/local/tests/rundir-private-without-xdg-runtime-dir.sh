#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Without XDG_RUNTIME_DIR, a user's named sandboxes live in a directory of
# the user's own (~/.cache/sandboxio/run, made 0700), not in the guessable
# /tmp/sandboxio-UID: another user who made that first (or made it with the
# wrong mode) no longer blocks create, ps, exec and kill.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }

tmp=$(mktemp -d /tmp/sbx-rundir.XXXXXX)
hostile=
id=
if [ "$(id -u)" = 0 ]; then
    command -v setpriv >/dev/null 2>&1 || { echo "SKIP: setpriv (util-linux) is not installed" >&2; exit 77; }
    # A uid of its own, so that no other test shares its directories.
    u=$((60000 + $$ % 5000))
    as_user="setpriv --reuid=$u --regid=$u --clear-groups --"
    hostile=/tmp/sandboxio-$u
    [ ! -e "$hostile" ] || fail "$hostile exists already"
    mkdir -m 0755 "$hostile"            # root's: another user's
else
    u=$(id -u)
    as_user=
    hostile=/tmp/sandboxio-$u
    if [ -e "$hostile" ]; then
        echo "SKIP: $hostile exists (this user's own); not touching it" >&2
        rm -rf "$tmp"
        exit 77
    fi
    mkdir -m 0777 "$hostile"            # the wrong mode
fi
cleanup() {
    [ -z "$id" ] || $as_user env HOME="$tmp/home" "$b/src/sandboxio" kill --dsn local:// "$id" >/dev/null 2>&1 || true
    rm -rf "$tmp" "$hostile"
}
trap cleanup EXIT
mkdir -m 0755 "$tmp/home"
chmod 0755 "$tmp"
[ "$(id -u)" != 0 ] || chown "$u:$u" "$tmp/home"

sbx() { $as_user env -u XDG_RUNTIME_DIR -u SANDBOXIO_LOCAL_RUNDIR HOME="$tmp/home" "$b/src/sandboxio" "$@"; }

id=$(sbx create --dsn local:// --ttl 5m) || fail "create failed"
[ -n "$id" ] || fail "create printed no id"
sbx ps --dsn local:// | grep -qF "$id" || fail "ps does not list $id"
[ "$(sbx exec --dsn local:// "$id" -- echo inside)" = inside ] || fail "exec failed"
run="$tmp/home/.cache/sandboxio/run"
[ -d "$run" ] || fail "$run was not made"
[ "$(stat -c "%a %u" "$run")" = "700 $u" ] && [ "$(stat -c '%a' "$tmp/home/.cache")" = 700 ] ||
    fail "$run is $(stat -c '%a %u' "$run"), not 700 $u"
[ -S "$run/${id#local:}" ] || fail "no socket $run/${id#local:}"
[ -z "$(ls -A "$hostile")" ] || fail "something was put in $hostile"
sbx kill --dsn local:// "$id" || fail "kill failed"
id=
# A run directory that is not private is still refused, here too.
chmod 0755 "$run"
out=$(sbx create --dsn local:// --ttl 5m 2>&1) && fail "a run dir of mode 0755 was used: $out"
case "$out" in *SBX_E4060*) ;; *) fail "not SBX_E4060: $out" ;; esac
echo ok
