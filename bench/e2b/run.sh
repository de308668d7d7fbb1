#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/e2b/run.sh [BUILDDIR] - the e2b backend against the official JS
# SDK, on the same doubles (the test rig: Prism before the control-plane
# double, the Connect envd double), in one run (as root, with node):
#   1. round trips of a one-shot run, counted by the rig for each side;
#   2. create -> run true -> kill, one sbx_run() and one SDK round in turn,
#      RUNS rounds (the SDK a warm in-process loop): medians and the median
#      of the per-round ratios;
#      and the same for the client's own CPU time (user + system);
#   2b. the same rounds sent straight to the control-plane double (no
#      front door, no Prism);
#   3. client memory per open sandbox (MANY sandboxes open at once).
# Figures to print, not asserts; the doubles' own cost is in both sides.
set -eu
builddir=$(cd "${1:-.}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
BENCH_BACKEND=e2b BENCH_SDK_PACKAGE=e2b BENCH_SDK_LABEL="e2b SDK"
. "$src/bench/lib/sdk-bench.sh"
DSN="e2b://?template=base&timeout=120"

echo "## 1. HTTP round trips of a one-shot run of true"
"$cli" run --dsn "$DSN" -- true   # warm
ctl_reset
"$cli" run --dsn "$DSN" -- true
bench_count "sandboxio run -- true"
ctl_reset
printf 'go\n' | node "$RIG_NODE/sdk-loop.mjs" >/dev/null
bench_count "e2b SDK create, commands.run('true'), kill"
echo

echo "## 2. create -> run true -> kill, interleaved ($runs rounds)"
BENCH_SERVED="front envd" "$bench" "$DSN" oneshot "$runs" node "$RIG_NODE/sdk-loop.mjs"
echo

# The same rounds with both clients sent straight to the control-plane
# double: no front door, no Prism. What is left of the doubles' work is
# their sandbox (a bwrap per create), so the ratio is nearer the clients'.
echo "## 2b. the same, straight to the control-plane double (no front door, no Prism; $runs rounds)"
E2B_API_URL=$RIG_CONTROL BENCH_SERVED="api envd" "$bench" "$DSN" oneshot "$runs" node "$RIG_NODE/sdk-loop.mjs"
echo

echo "## 3. client memory per open sandbox ($many open at once)"
"$bench" "$DSN" memory "$many"
rig_no_violations
rm -f "$RIG_NODE/sdk-loop.mjs"
