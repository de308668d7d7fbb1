#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Network "none" is a network namespace of its own with the loopback alone,
# up: a server on 127.0.0.1 inside is reachable from inside, and no other
# interface exists (the host's listeners are the contract suite's case).
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"

OUT="$SBX_DOCKERD_DIR/out"
ERR="$SBX_DOCKERD_DIR/err"
script='ls /sys/class/net; nc -l -p 8080 -e echo through-loopback & i=0
until out=$(nc 127.0.0.1 8080 </dev/null) && [ -n "$out" ]; do
    i=$((i + 1)); [ $i -lt 50 ] || exit 3; sleep 0.1; done
echo "$out"'
"$SBX" run --dsn "$DSN" -- sh -c "$script" >"$OUT" 2>"$ERR" ||
    fail "the loopback script failed ($?): $(cat "$ERR")"
[ "$(cat "$OUT")" = "lo
through-loopback" ] || fail "expected only lo and a connection through it, got: $(cat "$OUT")"
echo "interfaces and loopback: $(tr '\n' ' ' <"$OUT")"
expect_no_leftovers
echo PASS
