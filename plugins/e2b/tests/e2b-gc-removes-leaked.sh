#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# sandboxio gc removes the e2b sandboxes whose owner process is gone (also
# one really leaked by a client killed with SIGKILL) or whose TTL passed,
# and keeps those of live owners, unexpired ones from other machines and
# sandboxes that are not sandboxio's; all through Prism, spec-checked.
set -eu
. "$SBX_TEST_SRCDIR/plugins/e2b/tests/e2b-rig.sh"
SBX="$SBX_TEST_BUILDDIR/src/sandboxio"
. "$SBX_TEST_SRCDIR/plugins/e2b/tests/e2b-control.sh"

rig_start
DSN="e2b://?template=base&timeout=600"
host=$(hostname)
boot=$(cat /proc/sys/kernel/random/boot_id)
now=$(date +%s)
# Field 22 of /proc/PID/stat (the comm "sh" has no space): start time.
my_start=$(cut -d' ' -f22 /proc/$$/stat)
sh -c 'exit 0' &
dead_pid=$!
wait "$dead_pid"

# api METHOD PATH [JSON]: one call to the control plane, as a client makes it.
api() {
    node -e '
const [m, p, b] = process.argv.slice(1);
fetch(process.env.E2B_API_URL + p, { method: m, body: b || undefined,
  headers: { "x-api-key": process.env.E2B_API_KEY, ...(b ? { "content-type": "application/json" } : {}) } })
  .then(async (r) => { const t = await r.text(); if (r.status >= 300) { console.error(r.status, t); process.exit(1); } process.stdout.write(t); })
  .catch((e) => { console.error(e.message); process.exit(1); });' "$@"
}

# labelled NAME HOST PID START CREATED TTL: a sandbox with sandboxio's labels; prints its id.
labelled() {
    meta="{\"name\":\"$1\",\"io.sandboxio.sandbox\":\"1\",\"io.sandboxio.owner-host\":\"$2\",\"io.sandboxio.owner-boot\":\"$boot\",\"io.sandboxio.owner-pid\":\"$3\",\"io.sandboxio.owner-start\":\"$4\",\"io.sandboxio.created-at\":\"$5\",\"io.sandboxio.ttl\":\"$6\"}"
    api POST /sandboxes "{\"templateID\":\"base\",\"timeout\":600,\"metadata\":$meta}" >/dev/null ||
        fail "could not create the sandbox $1"
}
labelled dead-owner "$host" "$dead_pid" 1 "$now" 3600
labelled expired elsewhere.invalid 1 1 $((now - 7200)) 3600
labelled pid-reused "$host" $$ $((my_start + 1)) "$now" 3600
labelled live-owner "$host" $$ "$my_start" "$now" 3600
labelled other-machine elsewhere.invalid 1 1 "$now" 3600
api POST /sandboxes '{"templateID":"base","timeout":600,"metadata":{"name":"not-ours"}}' >/dev/null ||
    fail "could not create a sandbox that is not sandboxio's"

# A client killed while its sandbox is open leaks a real one.
"$SBX" run --dsn "$DSN" -- sleep 300 >/dev/null 2>&1 &
client=$!
i=0
leaked=
until [ -n "$leaked" ]; do
    i=$((i + 1))
    [ $i -lt 300 ] || fail "the client's sandbox never appeared"
    sleep 0.1
    leaked=$(api GET "/v2/sandboxes?metadata=io.sandboxio.owner-pid%3D$client" |
        node -e 'let t="";process.stdin.on("data",(d)=>t+=d).on("end",()=>{const l=JSON.parse(t);process.stdout.write(l.length?l[0].sandboxID:"")})')
done
kill -KILL "$client"
wait "$client" 2>/dev/null || true

out=$("$SBX" gc --json "$DSN") || fail "sandboxio gc failed: $out"
echo "$out"
echo "$out" | grep -q '"removed": 4' || fail "gc did not remove exactly 4 sandboxes"
echo "$out" | grep -q '"reason": "TTL passed"' || fail "no TTL removal reported"
echo "$out" | grep -q '"reason": "owner process gone"' || fail "no dead owner reported"
echo "$out" | grep -q '"reason": "owner process gone (pid reused)"' || fail "no pid reuse reported"
echo "$out" | grep -q "\"id\": \"$leaked\"" || fail "the leaked sandbox was not removed"

left=$(api GET /v2/sandboxes | node -e 'let t="";process.stdin.on("data",(d)=>t+=d).on("end",()=>{process.stdout.write(JSON.parse(t).map((s)=>s.metadata.name).sort().join(" "))})')
[ "$left" = "live-owner not-ours other-machine" ] || fail "gc left: $left"

out=$("$SBX" gc "$DSN") || fail "a second sandboxio gc failed: $out"
case $out in "0 removed from "*) ;; *) fail "second gc: $out" ;; esac

rig_no_violations
rig_stop
echo "PASS: gc removed the dead owners' and the expired sandboxes, kept the rest"
