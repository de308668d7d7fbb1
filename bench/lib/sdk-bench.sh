# SPDX-License-Identifier: Apache-2.0
# Sourced by bench/e2b/run.sh and bench/daytona/run.sh, not run. Set
# before sourcing: builddir, src, BENCH_BACKEND (e2b, daytona),
# BENCH_SDK_PACKAGE (the SDK's npm package in the rig's node_modules) and
# BENCH_SDK_LABEL (what the header calls it). Builds the CLI, the plugin
# and the driver (bench/BACKEND/bench-BACKEND, bench/lib/sdk-bench.c),
# starts the backend's test rig (rig_start, its control helpers sourced),
# points the library at the build tree, copies the SDK loop beside the
# rig's node_modules (the pinned SDK) and prints the header: the machine,
# its load, node's and the SDK's versions. Sets cli, bench, runs (RUNS,
# 20) and many (MANY, 50).
b=$BENCH_BACKEND
for t in src/sandboxio "plugins/$b/sandboxio-$b.la" "bench/$b/bench-$b"; do
    make -C "$builddir" -s "$t" >/dev/null
done
SBX_TEST_BUILDDIR=$builddir
SBX_TEST_SRCDIR=$src
. "$src/plugins/$b/tests/$b-rig.sh"
. "$src/plugins/$b/tests/$b-control.sh"
rig_start
export LD_LIBRARY_PATH="$builddir/src/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export SANDBOXIO_PLUGIN_PATH="$builddir/plugins/$b/.libs"
cli="$builddir/src/.libs/sandboxio"
[ -x "$cli" ] || cli="$builddir/src/sandboxio"
bench="$builddir/bench/$b/.libs/bench-$b"
[ -x "$bench" ] || bench="$builddir/bench/$b/bench-$b"
runs=${RUNS:-20}
many=${MANY:-50}
cp "$src/bench/$b/sdk-loop.mjs" "$RIG_NODE/sdk-loop.mjs"

echo "# machine: $(uname -srm), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# node $(node --version), $BENCH_SDK_LABEL $(node -p "require('$RIG_NODE/node_modules/$BENCH_SDK_PACKAGE/package.json').version")"
echo

# bench_count LABEL: the requests the rig's front doors recorded since
# ctl_reset, "LABEL: N (control plane A, SIDE B)"; with BENCH_COUNT_CALLS=1
# also each call, its ids shown as {id}.
bench_count() {
    node -e '
(async () => {
  const get = async (p) => (await fetch(process.env.RIG_CONTROL + p)).json();
  const api = await get("/_control/requests"), side = await get(process.env.RIG_SIDE_LOG);
  const name = process.env.RIG_SIDE_NAME;
  console.log(`${process.argv[1]}: ${api.length + side.length} (control plane ${api.length}, ${name} ${side.length})`);
  if (process.env.BENCH_COUNT_CALLS !== "1") return;
  const shape = (p) => p.split("?")[0].replace(/[0-9a-f]{8}-[0-9a-f-]{27}|sandboxio-[0-9a-f-]+|bench-[0-9-]+/g, "{id}");
  for (const [where, r] of [...api.map((r) => ["api", r]), ...side.map((r) => [name, r])])
    console.log(`    ${where} ${r.method} ${shape(r.path)}`);
})();' "$1"
}
