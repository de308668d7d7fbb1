#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The static-analysis gate is green on a clean file and red on a file with a
# NULL dereference (scan-build) and an index out of bounds (cppcheck). The
# whole tree is analyzed by the "static-analysis" step of scripts/test.sh
# (a full build under scan-build is too slow for every make check).
set -u
src=${SBX_TEST_SRCDIR:?}
gate="$src/scripts/check-static-analysis.sh"
fail() { echo "FAIL: $*"; exit 1; }
for tool in cppcheck scan-build clang; do
    command -v $tool >/dev/null 2>&1 || {
        echo "SKIP: $tool is not installed (Debian: cppcheck, clang, clang-tools)"
        [ "${CI:-}" = true ] && exit 1; exit 77; }
done

"$gate" "$src/abi/plugin-types.c" || fail "red on a clean file"
out=$("$gate" "$src/tests/gates/fixtures/analyzer-finding.c" 2>&1) && fail "green on the fixture: $out"
echo "$out" | grep -q 'cppcheck error \[arrayIndexOutOfBounds\]' || fail "cppcheck missed the overrun: $out"
echo "$out" | grep -q 'scan-build \[Dereference of null pointer\]' || fail "scan-build missed the NULL: $out"
echo "PASS: each analyzer's finding turns the gate red"
