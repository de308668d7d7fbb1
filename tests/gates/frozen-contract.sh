#!/bin/sh
# The frozen-contract gate passes on the tree, and turns red on a released
# code that disappeared, on a renumbered one and on a code not listed yet.
set -u
src=${SBX_TEST_SRCDIR:?}; build=${SBX_TEST_BUILDDIR:?}
gate="$src/scripts/check-frozen.sh"; cli="$build/src/sandboxio"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$gate" "$src" "$cli" || fail "the gate is red on the tree itself"

fresh() { rm -rf "$tmp/f"; cp -r "$src/tests/frozen" "$tmp/f"; chmod -R u+w "$tmp/f"; }

fresh; echo "4999 SBX_E_RETIRED_FOR_TEST" >>"$tmp/f/error-codes.txt"
out=$(SBX_FROZEN_DIR="$tmp/f" "$gate" "$src" "$cli" 2>&1) && fail "a removed code passed"
echo "$out" | grep -q '4999 SBX_E_RETIRED_FOR_TEST' || fail "the removed code is not named: $out"

fresh; sed -i 's/^1002 SBX_E_DSN_EMPTY$/1099 SBX_E_DSN_EMPTY/' "$tmp/f/error-codes.txt"
out=$(SBX_FROZEN_DIR="$tmp/f" "$gate" "$src" "$cli" 2>&1) && fail "a renumbered code passed"
echo "$out" | grep -q '1099 SBX_E_DSN_EMPTY' || fail "the renumbered code is not named: $out"

fresh; echo "SBX-GONE-001" >>"$tmp/f/contract-ids.txt"
out=$(SBX_FROZEN_DIR="$tmp/f" "$gate" "$src" "$cli" 2>&1) && fail "a removed contract case passed"
echo "$out" | grep -q 'SBX-GONE-001' || fail "the removed case is not named: $out"

fresh; sed -i '/^1001 /d' "$tmp/f/error-codes.txt"
out=$(SBX_FROZEN_DIR="$tmp/f" "$gate" "$src" "$cli" 2>&1) && fail "an unlisted code passed"
echo "$out" | grep -q 'not frozen yet' || fail "no advice to add the new code: $out"
SBX_FROZEN_DIR="$tmp/f" "$gate" "$src" "$cli" --update >/dev/null || fail "--update did not make it pass"
grep -q '^1001 SBX_E_INVALID_ARGUMENT$' "$tmp/f/error-codes.txt" || fail "--update did not append 1001"
echo "PASS: removed, renumbered and unlisted codes and ids turn the gate red"
