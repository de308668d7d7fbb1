#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The contract suite passes every case against a real dockerd, for every
# capability the docker backend declares (a missing host prerequisite fails
# rather than skips), and no container or volume of a sandbox is left.
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"

OUT="$SBX_DOCKERD_DIR/contract.out"
# A tarball's check (distcheck) runs a few cases that prove the rig works
# from the tarball: scripts/test.sh ran the whole suite on this tree already.
set --; [ -z "${SBX_TEST_CONTRACT_ONLY:-}" ] || set -- --only "$SBX_TEST_CONTRACT_ONLY"
set +e
SANDBOXIO_MUST_WORK=1 "$SBX" contract "$DSN" "$@" >"$OUT" 2>&1
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
# The caps the suite ran with are the ones the backend promises.
head -n 1 "$OUT" | grep -q 'caps exec,stream,stdin,files,env,cwd,timeout,net-none,limit-memory,limit-cpu,limit-pids,persist,pause,oom-report,limit-disk,attach,pty,file-meta,cwd-abs$' ||
    fail "the declared capabilities changed: $(head -n 1 "$OUT")"
expect_no_leftovers
echo "PASS: $summary, nothing left behind"
