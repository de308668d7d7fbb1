#!/bin/sh
# The contract suite passes every case for every capability the e2b
# backend declares, against the spec-checked doubles (Prism validating each
# control-plane request and answer, a strict Connect envd); no request
# breaks E2B's spec, and no sandbox is left.
set -eu
. "$SBX_TEST_SRCDIR/plugins/e2b/tests/e2b-rig.sh"
SBX="$SBX_TEST_BUILDDIR/src/sandboxio"

rig_start
OUT="$RIG_DIR/contract.out"
# A tarball's check (distcheck) runs a few cases that prove the rig works
# from the tarball: scripts/test.sh ran the whole suite on this tree already.
set --; [ -z "${SBX_TEST_CONTRACT_ONLY:-}" ] || set -- --only "$SBX_TEST_CONTRACT_ONLY"
set +e
SANDBOXIO_MUST_WORK=1 "$SBX" contract "e2b://?template=base&timeout=600" "$@" >"$OUT" 2>&1
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
head -n 1 "$OUT" | grep -q 'caps exec,stream,stdin,files,env,cwd,timeout,net-none,persist,pause,attach' ||
    fail "the declared capabilities changed: $(head -n 1 "$OUT")"
rig_no_violations
left=$(node -e "fetch('$RIG_CONTROL/_control/sandboxes').then(r=>r.text()).then(t=>process.stdout.write(t))")
[ "$left" = "[]" ] || fail "sandboxes left behind: $left"
rig_stop
echo "PASS: $summary, no spec violation, nothing left behind"
