#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The frozen-contract gate passes on the tree, and turns red on a released
# code that disappeared, on a renumbered one and on a code not listed yet.
set -u
src=${SBX_TEST_SRCDIR:?}; build=${SBX_TEST_BUILDDIR:?}
gate="$src/scripts/check-frozen.sh"; cli="$build/src/sandboxio"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$gate" "$src" "$cli" || fail "the gate is red on the tree itself"

fresh() { rm -rf "$tmp/f"; cp -r "$src/tests/frozen" "$tmp/f"; chmod -R u+w "$tmp/f"; }

# red WHAT NAMED: the gate on the altered copy fails and names NAMED.
red() {
    out=$(SBX_FROZEN_DIR="$tmp/f" "$gate" "$src" "$cli" 2>&1) && fail "$1 passed"
    echo "$out" | grep -q "$2" || fail "$1: '$2' is not named: $out"
}
fresh; echo "4999 SBX_E_RETIRED_FOR_TEST" >>"$tmp/f/error-codes.txt"
red "a removed code" '4999 SBX_E_RETIRED_FOR_TEST'
fresh; sed -i 's/^1002 SBX_E_DSN_EMPTY$/1099 SBX_E_DSN_EMPTY/' "$tmp/f/error-codes.txt"
red "a renumbered code" '1099 SBX_E_DSN_EMPTY'
fresh; echo "SBX-GONE-001" >>"$tmp/f/contract-ids.txt"
red "a removed contract case" 'SBX-GONE-001'

fresh; sed -i '/^1001 /d' "$tmp/f/error-codes.txt"
red "an unlisted code" 'not frozen yet'
fresh; sed -i '/^1018 /d' "$tmp/f/error-codes.txt"
red "an unlisted code of the tool's" '1018 SBX_E_USAGE'
fresh; sed -i '/^1001 /d' "$tmp/f/error-codes.txt"
SBX_FROZEN_DIR="$tmp/f" "$gate" "$src" "$cli" --update >/dev/null || fail "--update did not make it pass"
grep -q '^1001 SBX_E_INVALID_ARGUMENT$' "$tmp/f/error-codes.txt" || fail "--update did not append 1001"
echo "PASS: removed, renumbered and unlisted codes and ids turn the gate red"
