#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# sandboxio gc removes the docker sandboxes whose owner process is gone
# (also one really leaked by a client killed with SIGKILL) or whose TTL
# passed, and keeps those of live owners, unexpired ones from other
# machines and containers that are not sandboxio's.
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"

host=$(hostname)
boot=$(cat /proc/sys/kernel/random/boot_id)
now=$(date +%s)
# Field 22 of /proc/PID/stat (the comm "sh" has no space): start time.
my_start=$(cut -d' ' -f22 /proc/$$/stat)
sh -c 'exit 0' &
dead_pid=$!
wait "$dead_pid"

labelled() { # name owner-host owner-pid owner-start created ttl
    docker create --name "$1" --label io.sandboxio.sandbox=1 \
        --label io.sandboxio.owner-host="$2" --label io.sandboxio.owner-boot="$boot" \
        --label io.sandboxio.owner-pid="$3" --label io.sandboxio.owner-start="$4" \
        --label io.sandboxio.created-at="$5" --label io.sandboxio.ttl="$6" \
        --network none busybox true >/dev/null
}
labelled dead-owner "$host" "$dead_pid" 1 "$now" 3600
labelled expired elsewhere.invalid 1 1 $((now - 7200)) 3600
labelled pid-reused "$host" $$ $((my_start + 1)) "$now" 3600
labelled live-owner "$host" $$ "$my_start" "$now" 3600
labelled other-machine elsewhere.invalid 1 1 "$now" 3600
docker create --name not-ours --network none busybox true >/dev/null

# A client killed while its sandbox is open leaks a real one.
"$SBX" run --dsn "$DSN" -- sleep 300 >/dev/null 2>&1 &
client=$!
i=0
until [ -n "$(docker ps -q --filter label=io.sandboxio.owner-pid=$client)" ]; do
    i=$((i + 1))
    [ $i -lt 300 ] || fail "the client's sandbox never appeared"
    sleep 0.1
done
kill -KILL "$client"
wait "$client" 2>/dev/null || true
leaked=$(docker ps -q --filter label=io.sandboxio.owner-pid=$client)

out=$("$SBX" gc --json "docker://$SOCK") || fail "sandboxio gc failed: $out"
echo "$out"
echo "$out" | grep -q '"removed": 4' || fail "gc did not remove exactly 4 sandboxes"
echo "$out" | grep -q '"reason": "TTL passed"' || fail "no TTL removal reported"
echo "$out" | grep -q '"reason": "owner process gone"' || fail "no dead owner reported"
echo "$out" | grep -q '"reason": "owner process gone (pid reused)"' || fail "no pid reuse reported"
echo "$out" | grep -q "\"id\": \"$(echo "$leaked" | cut -c1-12)\"" || fail "the leaked sandbox was not removed"

left=$(docker ps -a --format '{{.Names}}' | sort | tr '\n' ' ')
[ "$left" = "live-owner not-ours other-machine " ] || fail "gc left: $left"

out=$("$SBX" gc "docker://$SOCK") || fail "a second sandboxio gc failed: $out"
[ "$out" = "0 removed from docker://$SOCK" ] || fail "second gc: $out"

docker rm -f live-owner not-ours other-machine >/dev/null
expect_no_leftovers
echo "PASS"
