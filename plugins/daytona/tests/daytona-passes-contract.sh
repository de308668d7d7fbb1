#!/bin/sh
# The contract suite passes every case for every capability the daytona
# backend declares, against the spec-checked doubles (Prism validating each
# control-plane and toolbox request and answer); no request breaks
# Daytona's specs, and no sandbox is left.
set -eu
. "$SBX_TEST_SRCDIR/plugins/daytona/tests/daytona-rig.sh"
SBX="$SBX_TEST_BUILDDIR/src/sandboxio"

rig_start
OUT="$RIG_DIR/contract.out"
set +e
SANDBOXIO_MUST_WORK=1 "$SBX" contract "daytona://?snapshot=daytona-small" >"$OUT" 2>&1
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
head -n 1 "$OUT" | grep -q 'caps exec,stream,stdin,files,env,cwd,timeout,net-none,persist' ||
    fail "the declared capabilities changed: $(head -n 1 "$OUT")"
rig_no_violations
left=$(node -e "fetch('$RIG_CONTROL/_control/sandboxes').then(r=>r.text()).then(t=>process.stdout.write(t))")
[ "$left" = "[]" ] || fail "sandboxes left behind: $left"
rig_stop
echo "PASS: $summary, no spec violation, nothing left behind"
