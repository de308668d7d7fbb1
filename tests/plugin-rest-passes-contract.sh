#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# examples/plugin-rest builds out of tree against the INSTALLED plugin kit:
# this build tree is installed into a staging directory, and the example's
# own Makefile finds the headers, libsandboxio-plugin-kit.a and libcurl and
# json-c through `pkg-config sandboxio-plugin sandboxio-plugin-kit` alone
# (the staged .pc files, their paths moved under the staging directory).
# Against the double it ships (restdemo-double.py, on 127.0.0.1) it passes
# the contract suite with no failure, and the kit's parts it uses show: a
# wrong key is SBX_E4002 through the kit's status map and never appears in
# the message (redaction); `sandboxio gc` removes a sandbox whose owner
# process is gone and keeps one whose owner lives (owner labels, the sweep).
# docs/packaging.md shows its result line.
set -eu
: "${SBX_TEST_BUILDDIR:?run this test through make check}"
SBX="$SBX_TEST_BUILDDIR/src/sandboxio"
# A missing tool skips, except in CI, where the test must run.
skip() { echo "SKIP: $*"; [ "${CI:-}" = true ] && exit 1; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

for tool in python3 pkg-config make; do
    command -v "$tool" >/dev/null 2>&1 || skip "$tool is not installed"
done

TMP=$(mktemp -d)
double_pid=
cleanup() {
    [ -z "$double_pid" ] || { kill "$double_pid" 2>/dev/null; wait "$double_pid" 2>/dev/null || :; }
    rm -rf "$TMP"
}
trap cleanup EXIT

# 1. Install this tree into a staging directory.
stage="$TMP/stage"
make -s -C "$SBX_TEST_BUILDDIR" install DESTDIR="$stage" >"$TMP/install.out" 2>&1 ||
    { tail -n 30 "$TMP/install.out" >&2; fail "make install DESTDIR=... failed"; }
kit_pc=$(find "$stage" -name sandboxio-plugin-kit.pc)
[ -n "$kit_pc" ] || fail "make install put no sandboxio-plugin-kit.pc"
# The staged .pc files, every absolute path moved under the staging directory.
mkdir "$TMP/pc"
for pc in "$(dirname "$kit_pc")"/sandboxio*.pc; do
    sed -E "s|^([A-Za-z_]+)=/|\\1=$stage/|" "$pc" >"$TMP/pc/$(basename "$pc")"
done
PKG_CONFIG_PATH="$TMP/pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG_PATH

# 2. Build the example out of tree with its own Makefile.
cp -R "$SBX_TEST_SRCDIR/examples/plugin-rest" "$TMP/rest"
make -s -C "$TMP/rest" CC="${SBX_TEST_CC:-cc}" CFLAGS='-O2 -Werror' plugindir="$TMP/plugins" \
    install >"$TMP/make.out" 2>&1 || { cat "$TMP/make.out" >&2; fail "plugin-rest does not build"; }
plugin="$TMP/plugins/sandboxio-restdemo.so"
[ -f "$plugin" ] || fail "make install put no sandboxio-restdemo.so in the plugin directory"
nm -D --defined-only "$plugin" | awk '{print $3}' >"$TMP/syms"
[ "$(cat "$TMP/syms")" = sandboxio_plugin_v1 ] ||
    fail "exports more than its entry point (the kit must stay hidden): $(tr '\n' ' ' <"$TMP/syms")"
nm "$plugin" | grep -q ' t sbxu_http_send$' || fail "the plugin does not hold the kit's sbxu_http_send"

# 3. The double, on loopback.
mkdir "$TMP/root"
RESTDEMO_API_KEY="key-$$-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
python3 "$TMP/rest/restdemo-double.py" --root "$TMP/root" --key "$RESTDEMO_API_KEY" \
    --port-file "$TMP/port" 2>"$TMP/double.err" &
double_pid=$!
i=0
while [ ! -s "$TMP/port" ]; do
    i=$((i + 1))
    [ $i -le 100 ] || { cat "$TMP/double.err" >&2; fail "the double did not start in 10 s"; }
    sleep 0.1
done
RESTDEMO_API_URL="http://127.0.0.1:$(cat "$TMP/port")"
SANDBOXIO_PLUGIN_PATH="$TMP/plugins"
export RESTDEMO_API_KEY RESTDEMO_API_URL SANDBOXIO_PLUGIN_PATH

"$SBX" plugins >"$TMP/plugins.out" 2>&1 || { cat "$TMP/plugins.out" >&2; fail "sandboxio plugins failed"; }
grep -Eq "^restdemo +ok +1\.0\.0 +1\.[0-9]+ +none +exec,stream,files,env,cwd,timeout,persist " \
    "$TMP/plugins.out" || { cat "$TMP/plugins.out" >&2; fail "sandboxio plugins does not list restdemo as ok"; }

# 4. The contract; a missing host prerequisite fails rather than skips, so
# the skips are exactly the capabilities not declared and the tier.
rc=0
SANDBOXIO_MUST_WORK=1 "$SBX" contract restdemo:// >"$TMP/contract.out" 2>&1 || rc=$?
[ $rc -eq 0 ] || { grep -v '^PASS' "$TMP/contract.out" >&2; fail "sandboxio contract restdemo:// exited $rc"; }
grep -q '^FAIL' "$TMP/contract.out" && { grep '^FAIL' "$TMP/contract.out" >&2; fail "a contract case failed"; }
tail -n 1 "$TMP/contract.out"
documented=$(sed -n 's/^sandboxio contract restdemo:\/\/ *# //p' "$SBX_TEST_SRCDIR/docs/packaging.md")
[ "$documented" = "$(tail -n 1 "$TMP/contract.out")" ] ||
    fail "docs/packaging.md says '$documented', the run '$(tail -n 1 "$TMP/contract.out")'"

# 5. A wrong key: the kit maps the 401 and keeps the key out of the message.
rc=0
RESTDEMO_API_KEY=wrong-secret-value "$SBX" run --network open --dsn restdemo:// -- true </dev/null >"$TMP/auth.out" 2>&1 || rc=$?
grep -q 'SBX_E4002' "$TMP/auth.out" || { cat "$TMP/auth.out" >&2; fail "a wrong key is not SBX_E4002 (exit $rc)"; }
grep -q 'wrong-secret-value' "$TMP/auth.out" && fail "the key appears in the message: $(cat "$TMP/auth.out")"

# 6. gc: two sandboxes carrying the kit's owner labels, made on this host in
# this boot; one's owner pid is gone (a process that has exited), the
# other's is the double itself, alive.
sh -c 'exit 0' &
dead=$!
wait "$dead"
boot=$(cat /proc/sys/kernel/random/boot_id)
start=$(awk '{print $22}' "/proc/$double_pid/stat")
make_sandbox() { # owner-pid owner-start -> the new sandbox's id
    python3 - "$RESTDEMO_API_URL" "$RESTDEMO_API_KEY" "$(uname -n)" "$boot" "$1" "$2" <<'EOF'
import json, sys, time, urllib.request
url, key, host, boot, pid, start = sys.argv[1:]
labels = {"io.sandboxio.sandbox": "1", "io.sandboxio.owner-host": host,
          "io.sandboxio.owner-boot": boot, "io.sandboxio.owner-pid": pid,
          "io.sandboxio.owner-start": start, "io.sandboxio.created-at": str(int(time.time())),
          "io.sandboxio.ttl": "3600"}
rq = urllib.request.Request(url + "/v1/sandboxes", json.dumps({"labels": labels}).encode(),
                            {"Authorization": "Bearer " + key, "Content-Type": "application/json"})
print(json.load(urllib.request.urlopen(rq))["id"])
EOF
}
leaked=$(make_sandbox "$dead" 12345)
alive=$(make_sandbox "$double_pid" "$start")
"$SBX" gc restdemo:// >"$TMP/gc.out" 2>&1 || { cat "$TMP/gc.out" >&2; fail "sandboxio gc restdemo:// failed"; }
grep -q "$leaked" "$TMP/gc.out" || { cat "$TMP/gc.out" >&2; fail "gc did not remove $leaked, whose owner is gone"; }
grep -q "$alive" "$TMP/gc.out" && { cat "$TMP/gc.out" >&2; fail "gc removed $alive, whose owner runs"; }
[ ! -e "$TMP/root/$leaked" ] || fail "the service still holds $leaked after gc"
[ -d "$TMP/root/$alive" ] || fail "the service lost $alive"
echo "gc: removed $leaked (owner gone), kept $alive (owner alive)"
