#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The performance gate turns red, naming each figure: with one more shared
# library and a loop put in front of every measured program (the mutant
# tests/gates/perf_mutant.so, by LD_PRELOAD), the object counts go over
# their budget and each callgrind figure over its baseline; and against a
# baseline lowered by a fifth, the unchanged programs are over it too.
set -u
b=${SBX_TEST_BUILDDIR:?} src=${SBX_TEST_SRCDIR:?}
gate="$src/scripts/check-perf.sh"
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mutant="$b/tests/gates/.libs/perf_mutant.so"
[ -f "$mutant" ] || fail "no $mutant (make check builds it)"

# expect_red OUT FIGURE...: the gate failed, and named each figure with
# its count (not a program that failed to run).
expect_red() {
  out=$1; shift
  for f in "$@"; do
    grep -q "^FAIL: $f: [0-9]" "$out" || { cat "$out"; fail "the gate did not name '$f' as over"; }
  done
}
# ASan wants its runtime first among the preloaded objects; the mutant comes first.
if [ -n "${SBX_TEST_SAN_CFLAGS:-}" ]; then
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"; export ASAN_OPTIONS
fi

"$gate" "$b" >"$tmp/green" 2>&1 || { cat "$tmp/green"; fail "the gate is red on the build itself"; }
cat "$tmp/green"
figures_local=; grep -q '^PASS: objects run-local' "$tmp/green" && figures_local=yes
callgrind=; grep -q '^PASS: callgrind version' "$tmp/green" && callgrind=yes

# 1. A library more and a loop added.
"$gate" "$b" --preload "$mutant" >"$tmp/mutant" 2>&1 && { cat "$tmp/mutant"; fail "the mutant passed the gate"; }
expect_red "$tmp/mutant" "objects version"
[ -z "$figures_local" ] || expect_red "$tmp/mutant" "objects run-local"
if [ -n "$callgrind" ]; then
  expect_red "$tmp/mutant" "callgrind version"
  [ -z "$figures_local" ] || expect_red "$tmp/mutant" "callgrind run-local" "callgrind exec-local" \
    "callgrind run-ready-local"
fi
cat "$tmp/mutant"
echo "PASS: a library more and a loop added turn the gate red, naming each figure"

# 2. The same programs against a baseline lowered by a fifth.
if [ -z "$callgrind" ]; then
  echo "SKIP: the lowered baseline (the callgrind figures are not measured in this build: see above)"
  exit 0
fi
awk '/^#/ { print; next } { $NF = int($NF * 0.8); print }' \
  "$src/tests/gates/perf-callgrind-baseline" >"$tmp/lowered"
"$gate" "$b" --baseline "$tmp/lowered" >"$tmp/low" 2>&1 && { cat "$tmp/low"; fail "a lowered baseline passed"; }
expect_red "$tmp/low" "callgrind version"
[ -z "$figures_local" ] || expect_red "$tmp/low" "callgrind run-local" "callgrind exec-local" \
    "callgrind run-ready-local"
grep -q '^FAIL: objects' "$tmp/low" && { cat "$tmp/low"; fail "the objects were red with no library added"; }
cat "$tmp/low"
echo "PASS: against a baseline lowered by a fifth, each callgrind figure is named as over"
