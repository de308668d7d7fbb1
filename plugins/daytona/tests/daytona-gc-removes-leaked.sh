#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# sandboxio gc removes the daytona sandboxes whose owner process is gone
# (also one really leaked by a client killed with SIGKILL) or whose TTL
# passed, and keeps those of live owners, unexpired ones from other
# machines and sandboxes that are not sandboxio's; all through Prism,
# spec-checked.
set -eu
. "$SBX_TEST_SRCDIR/plugins/daytona/tests/daytona-rig.sh"
SBX="$SBX_TEST_BUILDDIR/src/sandboxio"
. "$SBX_TEST_SRCDIR/plugins/daytona/tests/daytona-control.sh"

rig_start
DSN="daytona://?snapshot=daytona-small"
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
fetch(process.env.DAYTONA_API_URL + p, { method: m, body: b || undefined,
  headers: { authorization: "Bearer " + process.env.DAYTONA_API_KEY, ...(b ? { "content-type": "application/json" } : {}) } })
  .then(async (r) => { const t = await r.text(); if (r.status >= 300) { console.error(r.status, t); process.exit(1); } process.stdout.write(t); })
  .catch((e) => { console.error(e.message); process.exit(1); });' "$@"
}
# names LIST-JSON: the sandboxes' names, sorted.
names() {
    node -e 'let t="";process.stdin.on("data",(d)=>t+=d).on("end",()=>{process.stdout.write(JSON.parse(t).items.map((s)=>s.name).sort().join(" "))})'
}

# labelled NAME HOST PID START CREATED TTL: a sandbox with sandboxio's labels.
labelled() {
    labels="{\"io.sandboxio.sandbox\":\"1\",\"io.sandboxio.owner-host\":\"$2\",\"io.sandboxio.owner-boot\":\"$boot\",\"io.sandboxio.owner-pid\":\"$3\",\"io.sandboxio.owner-start\":\"$4\",\"io.sandboxio.created-at\":\"$5\",\"io.sandboxio.ttl\":\"$6\"}"
    api POST /sandbox "{\"name\":\"$1\",\"snapshot\":\"daytona-small\",\"labels\":$labels}" >/dev/null ||
        fail "could not create the sandbox $1"
}
labelled dead-owner "$host" "$dead_pid" 1 "$now" 3600
labelled expired elsewhere.invalid 1 1 $((now - 7200)) 3600
labelled pid-reused "$host" $$ $((my_start + 1)) "$now" 3600
labelled live-owner "$host" $$ "$my_start" "$now" 3600
labelled other-machine elsewhere.invalid 1 1 "$now" 3600
api POST /sandbox '{"name":"not-ours","snapshot":"daytona-small","labels":{"team":"x"}}' >/dev/null ||
    fail "could not create a sandbox that is not sandboxio's"

# A client killed while its sandbox is open leaks a real one.
"$SBX" run --dsn "$DSN" -- sleep 300 >/dev/null 2>&1 &
client=$!
i=0
leaked=
until [ -n "$leaked" ]; do
    i=$((i + 1))
    [ $i -lt 600 ] || fail "the client's sandbox never appeared"
    sleep 0.1
    filter=$(node -p "encodeURIComponent(JSON.stringify({'io.sandboxio.owner-pid': '$client'}))")
    leaked=$(api GET "/sandbox?labels=$filter" |
        node -e 'let t="";process.stdin.on("data",(d)=>t+=d).on("end",()=>{const l=JSON.parse(t).items;process.stdout.write(l.length&&l[0].state==="started"?l[0].id:"")})')
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

left=$(api GET /sandbox | names)
[ "$left" = "live-owner not-ours other-machine" ] || fail "gc left: $left"

out=$("$SBX" gc "$DSN") || fail "a second sandboxio gc failed: $out"
case $out in "0 removed from "*) ;; *) fail "second gc: $out" ;; esac

rig_no_violations
rig_stop
echo "PASS: gc removed the dead owners' and the expired sandboxes, kept the rest"
