# SPDX-License-Identifier: Apache-2.0
# Sourced by a cloud backend's contract test after its rig script and
# rig_start: the contract suite passes every case for every capability the
# backend declares, against the spec-checked doubles; no request breaks
# the provider's spec, and no sandbox is left. Set before sourcing:
#   CONTRACT_DSN   the DSN to run the suite against
#   CONTRACT_CAPS  the capabilities the backend declares, as the suite's
#                  first line names them ("exec,stream,...")
: "${CONTRACT_DSN:?set CONTRACT_DSN before sourcing passes-contract.sh}"
: "${CONTRACT_CAPS:?set CONTRACT_CAPS before sourcing passes-contract.sh}"
SBX="$SBX_TEST_BUILDDIR/src/sandboxio"
OUT="$RIG_DIR/contract.out"
# A tarball's check (distcheck) runs a few cases that prove the rig works
# from the tarball: scripts/test.sh ran the whole suite on this tree already.
set --; [ -z "${SBX_TEST_CONTRACT_ONLY:-}" ] || set -- --only "$SBX_TEST_CONTRACT_ONLY"
set +e
SANDBOXIO_MUST_WORK=1 "$SBX" contract "$CONTRACT_DSN" "$@" >"$OUT" 2>&1
status=$?
set -e
cat "$OUT"
[ "$status" -eq 0 ] || fail "sandboxio contract exited $status"
summary=$(tail -n 1 "$OUT")
case $summary in
*" passed, 0 failed, "*) ;;
*) fail "not every case passed: $summary" ;;
esac
# A skip is only fair for a capability the backend does not declare.
if grep '^SKIP' "$OUT" | grep -v 'not declared ('; then
    fail "cases skipped although their capabilities are declared"
fi
head -n 1 "$OUT" | grep -q "caps $CONTRACT_CAPS\$" ||
    fail "the declared capabilities changed: $(head -n 1 "$OUT")"
rig_no_violations
left=$(node -e "fetch('$RIG_CONTROL/_control/sandboxes').then(r=>r.text()).then(t=>process.stdout.write(t))")
[ "$left" = "[]" ] || fail "sandboxes left behind: $left"
rig_stop
echo "PASS: $summary, no spec violation, nothing left behind"
