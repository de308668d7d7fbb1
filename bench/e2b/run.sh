#!/bin/sh
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
for t in src/sandboxio plugins/e2b/sandboxio-e2b.la bench/e2b/bench-e2b; do
    make -C "$builddir" -s "$t" >/dev/null
done
SBX_TEST_BUILDDIR=$builddir
SBX_TEST_SRCDIR=$src
. "$src/plugins/e2b/tests/e2b-rig.sh"
. "$src/plugins/e2b/tests/e2b-control.sh"
rig_start
export LD_LIBRARY_PATH="$builddir/src/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export SANDBOXIO_PLUGIN_PATH="$builddir/plugins/e2b/.libs"
cli="$builddir/src/.libs/sandboxio"
[ -x "$cli" ] || cli="$builddir/src/sandboxio"
bench="$builddir/bench/e2b/.libs/bench-e2b"
[ -x "$bench" ] || bench="$builddir/bench/e2b/bench-e2b"
DSN="e2b://?template=base&timeout=120"
runs=${RUNS:-20}
many=${MANY:-50}
# The SDK loop runs beside the rig's node_modules (the pinned e2b).
cp "$src/bench/e2b/sdk-loop.mjs" "$RIG_NODE/sdk-loop.mjs"

echo "# machine: $(uname -srm), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# node $(node --version), e2b SDK $(node -p "require('$RIG_NODE/node_modules/e2b/package.json').version")"
echo

echo "## 1. HTTP round trips of a one-shot run of true"
count() {
    node -e '
(async () => {
  const get = async (p) => (await fetch(process.env.RIG_CONTROL + p)).json();
  const api = (await get("/_control/requests")).length, envd = (await get("/_control/envd-requests")).length;
  console.log(`${process.argv[1]}: ${api + envd} (control plane ${api}, envd ${envd})`);
})();' "$1"
}
"$cli" run --dsn "$DSN" -- true   # warm
ctl_reset
"$cli" run --dsn "$DSN" -- true
count "sandboxio run -- true"
ctl_reset
printf 'go\n' | node "$RIG_NODE/sdk-loop.mjs" >/dev/null
count "e2b SDK create, commands.run('true'), kill"
echo

echo "## 2. create -> run true -> kill, interleaved ($runs rounds)"
"$bench" "$DSN" oneshot "$runs" node "$RIG_NODE/sdk-loop.mjs"
echo

# The same rounds with both clients sent straight to the control-plane
# double: no front door, no Prism. What is left of the doubles' work is
# their sandbox (a bwrap per create), so the ratio is nearer the clients'.
echo "## 2b. the same, straight to the control-plane double (no front door, no Prism; $runs rounds)"
E2B_API_URL=$RIG_CONTROL "$bench" "$DSN" oneshot "$runs" node "$RIG_NODE/sdk-loop.mjs"
echo

echo "## 3. client memory per open sandbox ($many open at once)"
"$bench" "$DSN" memory "$many"
rig_no_violations
rm -f "$RIG_NODE/sdk-loop.mjs"
