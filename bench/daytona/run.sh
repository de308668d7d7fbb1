#!/bin/sh
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
#   3. client memory per open sandbox (MANY sandboxes open at once).
# Figures to print, not asserts; the doubles' own cost is in both sides.
set -eu
builddir=$(cd "${1:-.}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
BENCH_BACKEND=daytona BENCH_SDK_PACKAGE=@daytonaio/sdk BENCH_SDK_LABEL=@daytonaio/sdk
. "$src/bench/lib/sdk-bench.sh"
DSN="daytona://?snapshot=daytona-small"
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
ctl POST /_control/toolbox '{"direct": false}' >/dev/null || fail "the rig would not go back"
echo

echo "## 3. client memory per open sandbox ($many open at once)"
"$bench" "$DSN" memory "$many"
rig_no_violations
rm -f "$RIG_NODE/sdk-loop.mjs"
