#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# scripts/test.sh exits with the verdict its totals print: 0 when every
# gate passed (also after a background gate was reaped, which once made a
# passing run exit 1), 1 when a gate failed or, under CI=true, skipped, and
# non-zero with the totals still printed when the run stops early.
set -u
src=${SBX_TEST_SRCDIR:?}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# run NAME BODY: a run made of BODY between the sourcing and the totals,
# as scripts/test.sh is, with CI set to $RUN_CI (none when empty: this test
# itself runs under CI=true in CI); its output in $tmp/NAME.out, its exit
# status returned.
run() {
  cat >"$tmp/$1.sh" <<SCRIPT
set -eu
top='$src'
. "\$top/scripts/test-counts.sh"
$2
totals; totals_done=1
exit \$status
SCRIPT
  if [ -n "${RUN_CI:-}" ]; then
    env CI="$RUN_CI" sh "$tmp/$1.sh" >"$tmp/$1.out" 2>&1
  else
    env -u CI sh "$tmp/$1.sh" >"$tmp/$1.out" 2>&1
  fi
}

run pass 'sleep 0.1 & canary_pid=$!
bg() { wait "$canary_pid"; rc=$?; canary_pid=; return $rc; }
step one true
step background bg'
rc=$?; [ $rc -eq 0 ] || fail "a passing run with a reaped background gate exited $rc: $(cat "$tmp/pass.out")"
grep -q '^2 passed, 0 failed, 0 skipped$' "$tmp/pass.out" || fail "counts: $(cat "$tmp/pass.out")"

run stale 'sleep 0.1 & canary_pid=$!; wait $canary_pid
step one true'
rc=$?; [ $rc -eq 0 ] || fail "a run whose background pid is gone exited $rc"

run red 'step one true
step two false'
rc=$?; [ $rc -eq 1 ] || fail "a failing gate exited $rc"
grep -q '^FAIL: two (exit 1)$' "$tmp/red.out" || fail "the failing gate is not named: $(cat "$tmp/red.out")"
grep -q '^1 passed, 1 failed, 0 skipped$' "$tmp/red.out" || fail "counts: $(cat "$tmp/red.out")"

run skip 'step one sh -c "exit 77"'
rc=$?; [ $rc -eq 0 ] || fail "a skipped gate outside CI exited $rc"
grep -q '^0 passed, 0 failed, 1 skipped$' "$tmp/skip.out" || fail "counts: $(cat "$tmp/skip.out")"
RUN_CI=true
run skipci 'step one sh -c "exit 77"'
rc=$?; [ $rc -eq 1 ] || fail "a skipped gate under CI=true exited $rc"
RUN_CI=

run early 'step one true
false
step never true'
rc=$?; [ $rc -ne 0 ] || fail "a run stopped by set -e exited 0"
grep -q '^1 passed, 1 failed, 0 skipped$' "$tmp/early.out" || fail "no totals when stopped early: $(cat "$tmp/early.out")"
grep -q never "$tmp/early.out" && fail "the run went on after set -e stopped it"
echo "PASS: scripts/test.sh exits with the verdict of its totals"
