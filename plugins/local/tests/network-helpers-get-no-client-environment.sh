#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The local backend's network helpers, the allowlist proxy and slirp4netns
# (--network open), parse what the sandbox sends: they start with an empty
# environment, so a client's secrets (E2B_API_KEY, SANDBOXIO_MCP_TOKEN, ...)
# are not in their memory. Each helper's /proc/PID/environ is read while its
# sandbox runs. The open case is skipped where slirp4netns cannot run.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
work=$(mktemp -d)
client=
cleanup() {
    [ -z "$client" ] || kill -KILL "$client" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; cat "$work/err" >&2 2>/dev/null || true; exit 1; }

secret=sbx-test-secret-$$
export E2B_API_KEY=$secret DAYTONA_API_KEY=$secret SANDBOXIO_MCP_TOKEN=$secret

# check NAME PGREP-ARGS -- RUN-ARGS...: start a sandbox with RUN-ARGS that
# sleeps, find its helper (the client's child), read its environment.
check() {
    name=$1
    shift
    pg=
    while [ "$1" != -- ]; do pg="$pg $1"; shift; done
    shift
    "$b/src/sandboxio" run --dsn local:// "$@" -- sleep 60 >/dev/null 2>"$work/err" </dev/null &
    client=$!
    i=0
    # shellcheck disable=SC2086 # $pg is a list of pgrep arguments
    until helper=$(pgrep -P "$client" $pg); do
        kill -0 "$client" 2>/dev/null || fail "the $name sandbox ended early"
        i=$((i + 1)); [ $i -lt 300 ] || fail "no $name under the client"; sleep 0.1
    done
    tr '\0' '\n' <"/proc/$helper/environ" >"$work/env" || fail "cannot read the $name's environment"
    kill -KILL "$client"
    wait "$client" 2>/dev/null || true
    client=
    ! grep -q "$secret" "$work/env" || fail "the $name holds the client's secret: $(grep "$secret" "$work/env")"
    [ ! -s "$work/env" ] || fail "the $name's environment is not empty: $(cat "$work/env")"
    echo "$name: empty environment"
}

check "allowlist proxy" -f sandboxio-local-proxy -- --network allowlist --allow-host env.test:8080
if command -v slirp4netns >/dev/null && [ -r /dev/net/tun ] && [ -w /dev/net/tun ]; then
    check slirp4netns -x slirp4netns -- --network open
else
    echo "slirp4netns cannot run here: the open case is skipped"
fi
echo "PASS: the network helpers start with an empty environment"
