#!/bin/sh
# The contract suite against real E2B (`make check-e2b-real`), with the
# key in E2B_API_KEY (and E2B_DOMAIN, E2B_API_URL, E2B_SANDBOX_URL if set,
# for a self-hosted install; E2B_TEMPLATE, default base), after
# `doctor --online` has found the key accepted. Without a key it
# says SKIP with the reason and exits 77: never a pass. Afterwards nothing
# sandboxio made may be left under the key.
set -eu
: "${SBX_TEST_BUILDDIR:?run this through make check-e2b-real}"
if [ -z "${E2B_API_KEY:-}" ]; then
    echo "SKIP: E2B_API_KEY is not set: the contract suite did not run against real E2B"
    exit 77
fi
SBX="$SBX_TEST_BUILDDIR/src/sandboxio"
DSN="e2b://${E2B_DOMAIN:-}?template=${E2B_TEMPLATE:-base}&timeout=900"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# The key and the control plane first, as `doctor --online` checks them.
online=$(SANDBOXIO_DSN="$DSN" "$SBX" doctor --online)
case $online in
*"e2b      ok: E2B control plane at "*) ;;
*) echo "FAIL: doctor --online did not reach real E2B:" >&2
   printf '%s\n' "$online" | grep -A3 'contacted' >&2; exit 1 ;;
esac
set +e
SANDBOXIO_MUST_WORK=1 "$SBX" contract "$DSN" >"$out" 2>&1
status=$?
set -e
cat "$out"
[ "$status" -eq 0 ] || { echo "FAIL: sandboxio contract exited $status against real E2B" >&2; exit 1; }
if grep '^SKIP' "$out" | grep -v 'not declared ('; then
    echo "FAIL: cases skipped although their capabilities are declared" >&2
    exit 1
fi
left=$(SANDBOXIO_PLUGIN_PATH="${SANDBOXIO_PLUGIN_PATH:-}" "$SBX" gc "$DSN")
case $left in "0 removed from "*) ;; *) echo "FAIL: the run left sandboxes: $left" >&2; exit 1 ;; esac
echo "PASS: $(tail -n 1 "$out") against real E2B"
