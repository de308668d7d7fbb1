#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Daemon and DSN failures of the docker backend give their exact codes (and
# the CLI's exit status for their class), with the daemon's own words kept;
# DOCKER_HOST and DOCKER_API_VERSION are honoured like the docker CLI does.
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"

ERR="$SBX_DOCKERD_DIR/err"
OUT="$SBX_DOCKERD_DIR/out"

# expect STATUS CODE TEXT -- ARGS...: sandboxio ARGS exits STATUS, says CODE and TEXT.
expect() {
    want_status=$1 code=$2 text=$3
    shift 4
    set +e
    "$@" >"$OUT" 2>"$ERR" </dev/null
    status=$?
    set -e
    echo "$* -> $status"
    [ "$status" -eq "$want_status" ] || { cat "$ERR" >&2; fail "$*: exit $status, expected $want_status"; }
    grep -qF "$code" "$ERR" || { cat "$ERR" >&2; fail "$*: no $code in stderr"; }
    grep -qF -- "$text" "$ERR" || { cat "$ERR" >&2; fail "$*: no '$text' in stderr"; }
}

# It works at all, and passes the exit status and output through.
"$SBX" run --dsn "$DSN" -- sh -c 'echo out; echo err >&2; exit 7' >"$OUT" 2>"$ERR" && status=0 || status=$?
[ "$status" -eq 7 ] || fail "run: exit $status, expected 7: $(cat "$ERR")"
[ "$(cat "$OUT")" = out ] || fail "run: stdout '$(cat "$OUT")'"
[ "$(cat "$ERR")" = err ] || fail "run: stderr '$(cat "$ERR")'"

# DSN options.
expect 120 SBX_E1011 'unknown option "colour"' -- "$SBX" run --dsn "$DSN&colour=blue" -- true
expect 120 SBX_E1012 'ttl=soon' -- "$SBX" run --dsn "$DSN&ttl=soon" -- true
expect 120 SBX_E1012 'pull=always' -- "$SBX" run --dsn "$DSN&pull=always" -- true
expect 120 SBX_E1012 'workdir=work' -- "$SBX" run --dsn "$DSN&workdir=work" -- true
expect 120 SBX_E1014 'takes no path' -- "$SBX" run --dsn "docker://localhost:2375/x" -- true

# The daemon is not there.
expect 123 SBX_E4001 'is the daemon running?' -- "$SBX" run --dsn "docker://$SBX_DOCKERD_DIR/nothing.sock" -- true
expect 123 SBX_E4001 'only unix:// and tcp://' -- env DOCKER_HOST=ssh://user@host "$SBX" run --dsn docker:// -- true

# An image that is not there, and may not be pulled; the daemon's name for it is kept.
expect 123 SBX_E4004 'image no-such-image:1 is not on' -- "$SBX" run --dsn "docker://$SOCK?image=no-such-image:1&pull=never" -- true

# An image that is not there and cannot be pulled (no registry in CI, or
# none by that name): a 4xxx code, the daemon's reason kept.
expect 123 SBX_E4 'pulling image sbx-no-such-image:1:' -- "$SBX" run --dsn "docker://$SOCK?image=sbx-no-such-image:1" -- true

# The client asks for an API version this backend cannot use.
expect 123 SBX_E4006 'speaks Engine API 1.20' -- env DOCKER_API_VERSION=1.20 "$SBX" run --dsn "$DSN" -- true
# ... and a daemon refusing a version it finds too new keeps its own message.
expect 123 SBX_E4006 'client version 9.99 is too new' -- env DOCKER_API_VERSION=9.99 "$SBX" run --dsn "$DSN" -- true

# DOCKER_HOST names the daemon when the DSN does not.
out=$(DOCKER_HOST="unix://$SOCK" "$SBX" run --dsn 'docker://?image=busybox' -- echo via-env) ||
    fail "DOCKER_HOST was not honoured"
[ "$out" = via-env ] || fail "DOCKER_HOST run printed '$out'"

# Permission denied on the socket: only meaningful for a user other than root.
if command -v setpriv >/dev/null 2>&1 &&
    setpriv --reuid=65534 --regid=65534 --clear-groups "$SBX" version >/dev/null 2>&1; then
    chmod 0711 "$SBX_DOCKERD_DIR"
    chmod 0600 "$SOCK"
    expect 123 SBX_E4007 'permission denied connecting to' -- \
        setpriv --reuid=65534 --regid=65534 --clear-groups "$SBX" run --dsn "$DSN" -- true
    chmod 0700 "$SBX_DOCKERD_DIR"
else
    echo "note: the build tree is not usable by uid 65534; permission case not run"
fi

expect_no_leftovers
echo "PASS"
