# SPDX-License-Identifier: Apache-2.0
# Sourced by a cloud backend's gc test after its rig script and rig_start:
# sandboxio gc removes the sandboxes whose owner process is gone (also one
# really leaked by a client killed with SIGKILL) or whose TTL passed, and
# keeps those of live owners, unexpired ones from other machines and
# sandboxes that are not sandboxio's; all through Prism, spec-checked.
# The sandboxes are made and listed as a client of the provider does, by
# rest-client.js and the backend's tests/rest-client.json. Set before
# sourcing:
#   GC_BACKEND   the backend (plugins/$GC_BACKEND/tests/rest-client.json)
#   GC_DSN       the DSN gc and the leaking client use
: "${GC_BACKEND:?set GC_BACKEND before sourcing gc-removes-leaked.sh}"
: "${GC_DSN:?set GC_DSN before sourcing gc-removes-leaked.sh}"
client() {
    node "$SBX_TEST_SRCDIR/lib/tests/rest-client.js" \
        "$SBX_TEST_SRCDIR/plugins/$GC_BACKEND/tests/rest-client.json" "$@"
}
host=$(hostname)
boot=$(cat /proc/sys/kernel/random/boot_id)
now=$(date +%s)
# Field 22 of /proc/PID/stat (the comm "sh" has no space): start time.
my_start=$(cut -d' ' -f22 /proc/$$/stat)
sh -c 'exit 0' &
dead_pid=$!
wait "$dead_pid"

# labelled NAME HOST PID START CREATED TTL: a sandbox with sandboxio's labels.
labelled() {
    labels="{\"io.sandboxio.sandbox\":\"1\",\"io.sandboxio.owner-host\":\"$2\",\"io.sandboxio.owner-boot\":\"$boot\",\"io.sandboxio.owner-pid\":\"$3\",\"io.sandboxio.owner-start\":\"$4\",\"io.sandboxio.created-at\":\"$5\",\"io.sandboxio.ttl\":\"$6\"}"
    client make "$1" "$labels" || fail "could not create the sandbox $1"
}
labelled dead-owner "$host" "$dead_pid" 1 "$now" 3600
labelled expired elsewhere.invalid 1 1 $((now - 7200)) 3600
labelled pid-reused "$host" $$ $((my_start + 1)) "$now" 3600
labelled live-owner "$host" $$ "$my_start" "$now" 3600
labelled other-machine elsewhere.invalid 1 1 "$now" 3600
client foreign not-ours || fail "could not create a sandbox that is not sandboxio's"

# A client killed while its sandbox is open leaks a real one.
"$SBX" run --dsn "$GC_DSN" -- sleep 300 >/dev/null 2>&1 &
pid=$!
i=0
leaked=
until [ -n "$leaked" ]; do
    i=$((i + 1))
    [ $i -lt 600 ] || fail "the client's sandbox never appeared"
    sleep 0.1
    leaked=$(client find-pid "$pid")
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true

out=$("$SBX" gc --json "$GC_DSN") || fail "sandboxio gc failed: $out"
echo "$out"
echo "$out" | grep -q '"removed": 4' || fail "gc did not remove exactly 4 sandboxes"
echo "$out" | grep -q '"reason": "TTL passed"' || fail "no TTL removal reported"
echo "$out" | grep -q '"reason": "owner process gone"' || fail "no dead owner reported"
echo "$out" | grep -q '"reason": "owner process gone (pid reused)"' || fail "no pid reuse reported"
echo "$out" | grep -q "\"id\": \"$leaked\"" || fail "the leaked sandbox was not removed"

left=$(client names)
[ "$left" = "live-owner not-ours other-machine" ] || fail "gc left: $left"

out=$("$SBX" gc "$GC_DSN") || fail "a second sandboxio gc failed: $out"
case $out in "0 removed from "*) ;; *) fail "second gc: $out" ;; esac

rig_no_violations
rig_stop
echo "PASS: gc removed the dead owners' and the expired sandboxes, kept the rest"
