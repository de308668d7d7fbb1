# SPDX-License-Identifier: Apache-2.0
# Sourced (last) by a cloud backend's real-provider script: the contract
# suite against the real provider, with the credential in the environment,
# after `doctor --online` has found it accepted. Without the credential it
# says SKIP with the reason and exits 77: never a pass. Afterwards nothing
# sandboxio made may be left under the credential. Set before sourcing:
#   REAL_WHO     the provider, for messages ("E2B", "Daytona")
#   REAL_KEY     the credential's variable (E2B_API_KEY, DAYTONA_API_KEY)
#   REAL_DSN     the DSN to run against
#   REAL_ONLINE  what doctor --online prints for it ("ok: E2B control plane at ")
#   REAL_TARGET  the make target that runs this (check-e2b-real)
set -eu
: "${SBX_TEST_BUILDDIR:?run this through make $REAL_TARGET}"
if [ -z "$(eval "printf %s \"\${$REAL_KEY:-}\"")" ]; then
    echo "SKIP: $REAL_KEY is not set: the contract suite did not run against real $REAL_WHO"
    exit 77
fi
SBX="$SBX_TEST_BUILDDIR/src/sandboxio"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# The credential and the control plane first, as `doctor --online` checks them.
online=$(SANDBOXIO_DSN="$REAL_DSN" "$SBX" doctor --online)
case $online in
*"$REAL_ONLINE"*) ;;
*) echo "FAIL: doctor --online did not reach real $REAL_WHO:" >&2
   printf '%s\n' "$online" | grep -A3 'contacted' >&2; exit 1 ;;
esac
set +e
SANDBOXIO_MUST_WORK=1 "$SBX" contract "$REAL_DSN" >"$out" 2>&1
status=$?
set -e
cat "$out"
[ "$status" -eq 0 ] || { echo "FAIL: sandboxio contract exited $status against real $REAL_WHO" >&2; exit 1; }
if grep '^SKIP' "$out" | grep -v 'not declared ('; then
    echo "FAIL: cases skipped although their capabilities are declared" >&2
    exit 1
fi
left=$(SANDBOXIO_PLUGIN_PATH="${SANDBOXIO_PLUGIN_PATH:-}" "$SBX" gc "$REAL_DSN")
case $left in "0 removed from "*) ;; *) echo "FAIL: the run left sandboxes: $left" >&2; exit 1 ;; esac
echo "PASS: $(tail -n 1 "$out") against real $REAL_WHO"
