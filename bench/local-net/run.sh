#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/local-net/run.sh [BUILDDIR] - local's network modes against a
# direct connection on the host, side by side. Needs root (a network
# namespace of its own, joined by a veth pair, holds the servers) and
# slirp4netns for the open mode. Measures, ROUNDS times (default 5) in turn:
#   1. throughput: BYTES (default 256 MiB) from a server in the namespace,
#      read directly by a client on the host, and by one in a local sandbox
#      through the allowlist proxy (CONNECT), and through --network open;
#   2. connection setup: COUNT (default 200) connections one after another,
#      each to its first byte, direct and through the proxy: the median per
#      connection, and what the proxy adds.
# With BASELINE_PROXY=PATH (another build's sandboxio-local-proxy), each
# round also measures the proxy through that one, in turn with the others,
# so that two versions compare under the same load.
# Figures are the medians of the per-round ratios (and differences); they
# are printed, not asserted: the machine's load moves them.
set -eu
b=$(cd "${1:-.}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
ROUNDS=${ROUNDS:-5}
BYTES=${BYTES:-268435456}
COUNT=${COUNT:-200}
for t in src/sandboxio plugins/local/sandboxio-local.la plugins/local/sandboxio-local-init \
         plugins/local/sandboxio-local-proxy; do
    make -C "$b" -s "$t" >/dev/null
done
export SANDBOXIO_PLUGIN_PATH="$b/plugins/local/.libs"
export SANDBOXIO_LOCAL_INIT="$b/plugins/local/sandboxio-local-init"
# The namespace, its veth pair and cleanup: the network tests' own.
SBX_TEST_NET_PREFIX=198.19.$(($$ % 250)).
. "$here/../../plugins/local/tests/netns.sh"
nb="$here/netbench.py"
$inns python3 "$nb" serve "${net}2" 9001 "$BYTES" & server_pids="$server_pids $!"
$inns python3 "$nb" serve "${net}2" 9002 0 & server_pids="$server_pids $!"
sleep 1

# In a sandbox: the allowlist (the server's address listed) or open.
inside() {
    mode=$1
    shift
    if [ "$mode" = allowlist ] || [ "$mode" = baseline ]; then
        p=$b/plugins/local/sandboxio-local-proxy
        [ "$mode" = allowlist ] || p=$BASELINE_PROXY
        SANDBOXIO_LOCAL_PROXY=$p "$b/src/sandboxio" run --dsn local:// --network allowlist --allow-host "${net}2:9001" \
            --allow-host "${net}2:9002" -- python3 -c "$(cat "$nb")" "$@" proxy 2>/dev/null
    else
        "$b/src/sandboxio" run --dsn local:// --network open -- python3 -c "$(cat "$nb")" "$@"
    fi
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", a / b }'; }

: >"$work/rounds"
r=0
while [ $r -lt "$ROUNDS" ]; do
    r=$((r + 1))
    direct=$(python3 "$nb" bulk "${net}2" 9001 "$BYTES")
    proxy=$(inside allowlist bulk "${net}2" 9001 "$BYTES")
    open=$(if command -v slirp4netns >/dev/null; then inside open bulk "${net}2" 9001 "$BYTES"; else echo 0; fi)
    sdirect=$(python3 "$nb" setup "${net}2" 9002 "$COUNT")
    sproxy=$(inside allowlist setup "${net}2" 9002 "$COUNT")
    base=0 sbase=0
    if [ -n "${BASELINE_PROXY:-}" ]; then
        base=$(inside baseline bulk "${net}2" 9001 "$BYTES")
        sbase=$(inside baseline setup "${net}2" 9002 "$COUNT")
    fi
    echo "round $r: throughput MB/s direct $direct proxy $proxy open $open baseline $base;" \
         "setup ms direct $sdirect proxy $sproxy baseline $sbase"
    echo "$direct $proxy $open $sdirect $sproxy $base $sbase" >>"$work/rounds"
done
f=$work/rounds
echo "throughput, direct MB/s (median):   $(awk '{print $1}' "$f" | median)"
echo "throughput, proxy/direct (median):  $(while read -r d p o s1 s2; do ratio "$p" "$d"; done <"$f" | median)"
echo "throughput, open/direct (median):   $(while read -r d p o s1 s2; do ratio "$o" "$d"; done <"$f" | median)"
echo "setup, direct ms (median):          $(awk '{print $4}' "$f" | median)"
echo "setup, proxy ms (median):           $(awk '{print $5}' "$f" | median)"
echo "setup, added by the proxy ms:       $(awk '{printf "%.3f\n", $5 - $4}' "$f" | median)"
[ -n "${BASELINE_PROXY:-}" ] || exit 0
echo "throughput, baseline/direct (median): $(while read -r d p o s1 s2 bp bs; do ratio "$bp" "$d"; done <"$f" | median)"
echo "setup, added by the baseline ms:    $(awk '{printf "%.3f\n", $7 - $4}' "$f" | median)"
