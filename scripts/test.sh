#!/bin/sh
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

./scripts/install-deps.sh
autoreconf -fi >/dev/null

status=0
summary=""

# run_check NAME CONFIGURE-FLAGS... : configure in build-NAME and run make check.
run_check() {
  name=$1; shift
  dir="$top/build-$name"
  rm -rf "$dir"; mkdir -p "$dir"
  echo "=== $name: configure $*"
  (cd "$dir" && "$top/configure" -q "$@") || return 1
  echo "=== $name: make"
  make -C "$dir" -s -j"$jobs" >/dev/null || return 1
  echo "=== $name: make check"
  make -C "$dir" -s -j"$jobs" check || {
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
  passed=$(( ${passed:-0} + ${p:-0} )); failed=$(( ${failed:-0} + ${fl:-0} + ${e:-0} ))
  skipped=$(( ${skipped:-0} + ${s:-0} ))
}

run_check normal --enable-werror || status=1
tally normal
run_check sanitizers --enable-sanitizers --enable-werror || status=1
tally sanitizers

# valgrind over the core's unit tests, in-process (CK_FORK=no) so every leak
# and invalid access of the library is seen.
echo "=== valgrind"
for t in tests/test_policy tests/test_sandbox_api tests/test_dsn tests/test_error_catalog; do
  if (cd "$top/build-normal" && CK_FORK=no SBX_TEST_BUILDDIR="$top/build-normal" \
        SBX_TEST_SRCDIR="$top" ./libtool --mode=execute valgrind -q --error-exitcode=99 \
        --leak-check=full --errors-for-leak-kinds=definite,indirect "./$t" >"$t.valgrind" 2>&1); then
    echo "PASS: valgrind $t"; passed=$(( ${passed:-0} + 1 ))
  else
    echo "FAIL: valgrind $t"; tail -n 40 "$top/build-normal/$t.valgrind"
    status=1; failed=$(( ${failed:-0} + 1 ))
  fi
done

echo "=== distcheck"
make -C "$top/build-normal" -s distcheck >"$top/build-normal/distcheck.out" 2>&1 || {
  tail -n 80 "$top/build-normal/distcheck.out"; status=1; failed=$(( ${failed:-0} + 1 ))
}
[ $status -eq 0 ] && grep -E 'archives ready|^sandboxio-.*\.tar\.gz' "$top/build-normal/distcheck.out" | head -n 3

# Check's own totals of each test program (from the normal build).
echo "=== Check totals (normal build)"
find "$top/build-normal" -name '*.log' ! -name config.log ! -name test-suite.log \
  -exec grep -H -E '^[0-9]+%: Checks: [0-9]+' {} + | sed "s|$top/build-normal/||" || true
echo "=== totals"
printf '%s' "$summary"
echo "${passed:-0} passed, ${failed:-0} failed, ${skipped:-0} skipped"
exit $status
