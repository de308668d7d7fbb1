#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The fake backend passes every contract case for the capabilities it
# declares; each skip is for an undeclared capability or its tier, never a
# failure in disguise. The JUnit and JSON reports agree with the lines.
set -u
cli="$SBX_TEST_BUILDDIR/src/sandboxio"
work=$(mktemp -d "${TMPDIR:-/tmp}/sbxc-fake.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

"$cli" contract fake:// --junit "$work/junit.xml" >"$work/out" 2>"$work/err"
status=$?
cat "$work/out"
[ -s "$work/err" ] && { echo "stderr:"; cat "$work/err"; }
[ "$status" -eq 0 ] || fail "sandboxio contract fake:// exited $status"

last=$(tail -n 1 "$work/out")
echo "$last" | grep -Eq '^[0-9]+ passed, 0 failed, [0-9]+ skipped$' ||
    fail "closing line is '$last'"
passed=$(echo "$last" | cut -d' ' -f1)
skipped=$(echo "$last" | cut -d' ' -f5)
[ "$(grep -c '^PASS ' "$work/out")" -eq "$passed" ] || fail "PASS lines do not add up to $passed"
[ "$(grep -c '^SKIP ' "$work/out")" -eq "$skipped" ] || fail "SKIP lines do not add up to $skipped"
! grep -q '^FAIL ' "$work/out" || fail "a FAIL line with 0 failed"

# Every skip names its cause: an undeclared capability refused with its
# SBX_E3xxx code, or tier none.
bad=$(grep '^SKIP ' "$work/out" |
      grep -Ev 'capability [a-z-]+ not declared \((refused with SBX_E3[0-9]{3}|no operation for the core to refuse)\)|tier none offers no isolation \(a namespace tier was refused with SBX_E3001\)')
[ -z "$bad" ] || fail "skips without a proper reason: $bad"
# What the fake declares is exercised, not skipped.
for id in SBX-LIFE-001 SBX-EXEC-001 SBX-EXEC-008 SBX-EXEC-009 SBX-EXEC-013 SBX-TIME-002 \
          SBX-FILE-001 SBX-FILE-006 SBX-FILE-008 SBX-FILE-009 SBX-FILE-011 SBX-PERS-002 \
          SBX-CLEAN-001; do
    grep -q "^PASS $id " "$work/out" || fail "$id did not pass"
done
grep -q '^SKIP SBX-ISO-001 .*tier none' "$work/out" || fail "SBX-ISO-001 not skipped for tier none"

# JUnit: one testcase per line, skips as <skipped>, no failure.
[ "$(grep -c '<testcase ' "$work/junit.xml")" -eq $((passed + skipped)) ] ||
    fail "junit.xml does not hold every case"
[ "$(grep -c '<skipped ' "$work/junit.xml")" -eq "$skipped" ] || fail "junit.xml skips differ"
! grep -q '<failure' "$work/junit.xml" || fail "junit.xml has a failure"
grep -q "<testsuite name=\"sandboxio contract fake\" tests=\"$((passed + skipped))\" failures=\"0\"" \
    "$work/junit.xml" || fail "junit.xml testsuite header: $(grep '<testsuite ' "$work/junit.xml")"
echo "ok: $last"
