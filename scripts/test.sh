#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The whole test suite, from a fresh checkout on Debian 12: installs the
# build dependencies, then builds and runs `make check` three ways:
#   1. a normal build with warnings as errors,
#   2. an AddressSanitizer + UndefinedBehaviorSanitizer build,
#   3. `make distcheck` (the release tarball builds and passes its tests).
# Prints every test's result and the totals; exits non-zero on any failure.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
jobs=$(nproc 2>/dev/null || echo 2)
# Most tests wait (on timeouts, servers, sandboxes) more than they compute:
# one more test than there are cores keeps the cores busy.
check_jobs=$((jobs + 1))

# The counts, the totals line and `step`: shared with their test
# (tests/gates/test-sh-counts.sh).
. "$top/scripts/test-counts.sh"

./scripts/install-deps.sh
# Every build below is out of tree (build-NAME/), which configure refuses
# while the source tree itself is configured (an in-tree `./configure`):
# clean that one away first, saying so. A build in build/ (the README's
# first command) is left alone: it never collides with build-NAME/.
if [ -f "$top/config.status" ]; then
  echo "=== the source tree is configured in-tree: make distclean there first"
  make -C "$top" -s distclean >/dev/null 2>&1 || rm -f "$top/config.status" "$top/Makefile"
fi
autoreconf -fi >/dev/null

# The provider canary builds nothing of the tree (it works in a temp dir of
# its own) and waits mostly on npm and its rigs: it runs beside the builds,
# and is counted as a gate at the end.
./scripts/provider-canary --report-only >"$top/provider-canary.out" 2>&1 &
canary_pid=$!
canary_result() { wait "$canary_pid"; rc=$?; canary_pid=; cat "$top/provider-canary.out"; return $rc; }

# slowest DIR: the tests of DIR that took longest (a log's birth to its
# .trs), where the file system records a birth time: what to make faster
# when the run nears its budget.
slowest() {
  find "$1" -name '*.trs' | while read -r trs; do
    b=$(stat -c %W "${trs%.trs}.log" 2>/dev/null || echo 0)
    [ "${b:-0}" -gt 0 ] 2>/dev/null && echo "$(($(stat -c %Y "$trs") - b)) ${trs#"$1"/}"
  done | sort -rn | head -n 10 | sed 's/^/  /; s/\.trs$//'
}

# run_check NAME CONFIGURE-FLAGS... : configure in build-NAME and run make check.
run_check() {
  name=$1; shift
  dir="$top/build-$name"
  rm -rf "$dir"; mkdir -p "$dir"
  echo "=== $name: configure $* (at $(since_start) s)"
  (cd "$dir" && "$top/configure" -q "$@") || return 1
  echo "=== $name: make"
  make -C "$dir" -s -j"$jobs" >/dev/null || return 1
  echo "=== $name: make check (at $(since_start) s)"
  make -C "$dir" -s -j"$check_jobs" check && ok=1 || ok=0
  echo "=== $name: the slowest tests (seconds), done at $(since_start) s"
  slowest "$dir"
  [ $ok -eq 1 ] || {
    # Show the log of every test that did not pass.
    find "$dir" -name '*.log' ! -name config.log ! -name test-suite.log | while read -r log; do
      trs=${log%.log}.trs
      [ -f "$trs" ] && grep -q '^:test-result: \(FAIL\|ERROR\|XPASS\)' "$trs" &&
        { echo "----- $log"; tail -n 60 "$log"; }
    done
    return 1
  }
}

# tally NAME: add the automake totals of build-NAME to the summary.
tally() {
  f="$top/build-$1/test-suite.log"
  [ -f "$f" ] || return 0
  p=$(sed -n 's/^# PASS: *//p' "$f" | head -n1); fl=$(sed -n 's/^# FAIL: *//p' "$f" | head -n1)
  s=$(sed -n 's/^# SKIP: *//p' "$f" | head -n1); e=$(sed -n 's/^# ERROR: *//p' "$f" | head -n1)
  summary="$summary$1: ${p:-0} passed, $(( ${fl:-0} + ${e:-0} )) failed, ${s:-0} skipped
"
  passed=$((passed + ${p:-0})); failed=$((failed + ${fl:-0} + ${e:-0}))
  skipped=$((skipped + ${s:-0}))
}

# checked NAME FLAGS...: run_check, then its totals; a build that failed
# before any test counted is one failure.
checked() {
  before=$failed
  run_check "$@" && ok=1 || { ok=0; status=1; }
  tally "$1"
  [ $ok -eq 1 ] || [ $failed -gt $before ] || failed=$((failed + 1))
}

checked normal --enable-werror
checked sanitizers --enable-sanitizers --enable-werror

# valgrind over the tests each .mk declares beside them (make valgrind-tests):
# memcheck in-process (CK_FORK=no) so every leak and invalid access of the
# library is seen, helgrind for the data races of the multi-threaded ones.
echo "=== valgrind (at $(since_start) s)"
vg_tests=$(make -s --no-print-directory -C "$top/build-normal" valgrind-tests | tr ' ' ':')
for entry in $vg_tests; do
  tool=${entry%%:*}; t=${entry#*:}
  case $tool in
    helgrind) vg_opts='--tool=helgrind' ;;
    *) vg_opts='--leak-check=full --errors-for-leak-kinds=definite,indirect' ;;
  esac
  # shellcheck disable=SC2086 # $vg_opts is a list of options
  if (cd "$top/build-normal" && CK_FORK=no SBX_TEST_BUILDDIR="$top/build-normal" \
        SBX_TEST_SRCDIR="$top" ./libtool --mode=execute valgrind -q --error-exitcode=99 \
        $vg_opts "./$t" >"$t.$tool" 2>&1); then
    echo "PASS: valgrind ($tool) $t"; passed=$((passed + 1))
  else
    echo "FAIL: valgrind ($tool) $t"; tail -n 40 "$top/build-normal/$t.$tool"
    status=1; failed=$((failed + 1))
  fi
done
[ -n "$vg_tests" ] || { echo "FAIL: make valgrind-tests listed nothing"; status=1; failed=$((failed + 1)); }

# The tarball's own check runs every test, but the backends' contract
# suites only on a few cases that prove each rig works from the tarball:
# both builds above ran them whole on this tree.
echo "=== distcheck (at $(since_start) s)"
SBX_TEST_CONTRACT_ONLY='SBX-[LFE][IX]*-00[23]' make -C "$top/build-normal" -s -j"$check_jobs" distcheck >"$top/build-normal/distcheck.out" 2>&1 || {
  tail -n 80 "$top/build-normal/distcheck.out"; status=1; failed=$((failed + 1))
}
[ $status -eq 0 ] && grep -E 'archives ready|^sandboxio-.*\.tar\.gz' "$top/build-normal/distcheck.out" | head -n 3

# Check's own totals of each test program (from the normal build).
echo "=== Check totals (normal build) (at $(since_start) s)"
find "$top/build-normal" -name '*.log' ! -name config.log ! -name test-suite.log \
  -exec grep -H -E '^[0-9]+%: Checks: [0-9]+' {} + | sed "s|$top/build-normal/||" || true
## Further gates: one `step NAME COMMAND` line each, in this block.
step minimal-build ./scripts/check-minimal-build.sh
step static-analysis ./scripts/check-static-analysis.sh
step fuzz ./scripts/run-fuzz.sh 30
step debian-packages ./scripts/check-debian-packages.sh
# Report-only: an upstream break (exit 1) is printed, not failed; a canary
# that cannot run (exit 2: no npm registry, a rig that does not start) fails.
step provider-canary canary_result
if [ -n "${E2B_API_KEY:-}" ]; then
    step e2b-real ./scripts/check-cloud-real.sh e2b E2B_API_KEY
else
    echo "SKIP: e2b-real (E2B_API_KEY is not set: real E2B was not tested; not a pass)"
    skipped=$((skipped + 1))
fi
if [ -n "${DAYTONA_API_KEY:-}" ]; then
    step daytona-real ./scripts/check-cloud-real.sh daytona DAYTONA_API_KEY
else
    echo "SKIP: daytona-real (DAYTONA_API_KEY is not set: real Daytona was not tested; not a pass)"
    skipped=$((skipped + 1))
fi

totals; totals_done=1
exit $status
