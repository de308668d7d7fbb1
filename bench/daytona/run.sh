#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/daytona/run.sh [BUILDDIR] - the daytona backend against the official
# @daytonaio/sdk, on the same doubles (the test rig: the control-plane and
# toolbox doubles, each behind Prism, each Prism behind a front door that
# records the requests), in one run (as root, with node):
#   1. round trips of a one-shot run, counted by the rig's front doors, for
#      `sandboxio run -- true` and for the SDK's create -> executeCommand
#      ('true') -> delete, and create -> a session command('true') -> delete;
#   2. create -> run true -> delete, one sbx_run() and one SDK round in
#      turn, RUNS rounds (the SDK a warm in-process loop, executeCommand):
#      medians and the median of the per-round ratios, and the same for the
#      client's own CPU time (user + system);
#   2b. the same with the SDK running `true` as a session command (its
#      stdout and stderr apart, as sandboxio's exec keeps them);
#   2c. the same rounds as 2, sent straight to the doubles (no front doors,
#      no Prism);
#   2d. one round of each, straight to the doubles, as they saw it: each
#      request's arrival and the end of its answer;
#   3. client memory per open sandbox (MANY sandboxes open at once).
# Figures to print, not asserts; the doubles' own cost is in both sides.
set -eu
builddir=$(cd "${1:-.}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
BENCH_BACKEND=daytona BENCH_SDK_PACKAGE=@daytonaio/sdk BENCH_SDK_LABEL=@daytonaio/sdk
. "$src/bench/lib/sdk-bench.sh"
DSN="daytona://?snapshot=daytona-small"
# After each create the control-plane double starts its next spare (a
# namespace sandbox) and, after each delete, tears one down: without a
# pause between the two clients' rounds, one client's create can wait for
# the other's leftovers, which couples their times (sdk-bench.c).
export BENCH_SETTLE_MS="${BENCH_SETTLE_MS:-300}"
# The SDK runs in the rig's own directory: it refuses to run beside a
# dotenv file that names the endpoint, and that directory has none.
cd "$RIG_DIR"

echo "## 1. HTTP round trips of a one-shot run of true"
# Each call listed, as the front doors received it.
export BENCH_COUNT_CALLS=1
"$cli" run --dsn "$DSN" -- true   # warm
ctl_reset
"$cli" run --dsn "$DSN" -- true
bench_count "sandboxio run -- true"
ctl_reset
printf 'go\n' | BENCH_SDK_MODE=execute node "$RIG_NODE/sdk-loop.mjs" >/dev/null
bench_count "Daytona SDK create, process.executeCommand('true'), delete"
ctl_reset
printf 'go\n' | BENCH_SDK_MODE=session node "$RIG_NODE/sdk-loop.mjs" >/dev/null
bench_count "Daytona SDK create, a session command('true'), delete"
echo

echo "## 2. create -> run true -> delete, interleaved ($runs rounds; the SDK with executeCommand)"
BENCH_SDK_MODE=execute "$bench" "$DSN" oneshot "$runs" node "$RIG_NODE/sdk-loop.mjs"
echo

echo "## 2b. the same, the SDK with a session command ($runs rounds)"
BENCH_SDK_MODE=session "$bench" "$DSN" oneshot "$runs" node "$RIG_NODE/sdk-loop.mjs"
echo

# Both clients sent straight to the doubles: the control-plane double for
# the API, and sandbox records that name the toolbox double itself as the
# toolbox proxy. What is left of the doubles' work is their own (the
# namespace sandbox, the daemon's shells), so the ratio is nearer the
# clients'.
echo "## 2c. as 2, straight to the doubles (no front doors, no Prism; $runs rounds)"
ctl POST /_control/toolbox '{"direct": true}' >/dev/null || fail "the rig would not go direct"
DAYTONA_API_URL=$RIG_CONTROL BENCH_SDK_MODE=execute "$bench" "$DSN" oneshot "$runs" node "$RIG_NODE/sdk-loop.mjs"
echo

# Where the time of one round goes, as the doubles saw it (straight to
# them): each request's arrival and the end of its answer. The time
# between an answer and the next request is the client's (and its pauses).
echo "## 2d. one round of each, straight to the doubles: each request as the doubles saw it"
timeline() {
    node -e '
(async () => {
  const t = await (await fetch(process.env.RIG_CONTROL + "/_control/timeline")).json();
  const starts = t.map((r, i) => (r.method === "POST" && r.path === "/sandbox" ? i : -1)).filter((i) => i >= 0);
  const round = t.slice(starts[starts.length - 1]);
  const t0 = round[0].start, end = round[round.length - 1].end;
  let inDoubles = 0;
  for (const r of round) inDoubles += r.end - r.start;
  const ms = (v) => v.toFixed(1).padStart(6);
  console.log(`${process.argv[1]}: ${round.length} requests, ${(end - t0).toFixed(1)} ms from the first` +
    ` request to the last answer: ${inDoubles.toFixed(1)} ms in the doubles, ${(end - t0 - inDoubles).toFixed(1)} ms between`);
  const shape = (p) => p.split("?")[0].replace(/[0-9a-f]{8}-[0-9a-f-]{27}|sandboxio-[0-9a-f-]+|bench-[0-9-]+/g, "{id}");
  let prev = t0;
  for (const r of round) {
    console.log(`    +${ms(r.start - t0)} ms (${ms(r.start - prev)} after the last answer) ${ms(r.end - r.start)} ms  ${r.service} ${r.method} ${shape(r.path)} ${r.status}`);
    prev = r.end;
  }
})();' "$1"
}
ctl DELETE /_control/timeline >/dev/null
DAYTONA_API_URL=$RIG_CONTROL "$cli" run --dsn "$DSN" -- true
timeline "sandboxio run -- true"
ctl DELETE /_control/timeline >/dev/null
# The SDK's third round: its module loaded and its code warm.
printf 'go\ngo\ngo\n' | DAYTONA_API_URL=$RIG_CONTROL BENCH_SDK_MODE=execute node "$RIG_NODE/sdk-loop.mjs" >/dev/null
timeline "the SDK's create, executeCommand('true'), delete (its third round)"
ctl POST /_control/toolbox '{"direct": false}' >/dev/null || fail "the rig would not go back"
echo

echo "## 3. client memory per open sandbox ($many open at once)"
"$bench" "$DSN" memory "$many"
rig_no_violations
rm -f "$RIG_NODE/sdk-loop.mjs"
