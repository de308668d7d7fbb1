#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The code table of docs/errors/README.md and the page list of
# docs/errors/errors.mk are what scripts/gen-error-index.sh derives from
# the two error-codes.def files (nothing to regenerate on the tree), and a
# code added to a definition appears in both once it runs.
set -u
src=${SBX_TEST_SRCDIR:?}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

copy() {
    rm -rf "$tmp/t"; mkdir -p "$tmp/t/include/sandboxio" "$tmp/t/src/cli" "$tmp/t/docs/errors"
    cp "$src/include/sandboxio/error-codes.def" "$tmp/t/include/sandboxio/"
    cp "$src/src/cli/error-codes.def" "$tmp/t/src/cli/"
    cp "$src/docs/errors/README.md" "$src/docs/errors/errors.mk" "$tmp/t/docs/errors/"
    chmod -R u+w "$tmp/t"
}

copy
sh "$src/scripts/gen-error-index.sh" "$tmp/t" >/dev/null || fail "the script failed on the tree"
for f in README.md errors.mk; do
    cmp -s "$tmp/t/docs/errors/$f" "$src/docs/errors/$f" ||
        fail "docs/errors/$f is behind the definitions: run make frozen-update"
done

copy
echo 'SBX_ERROR(SBX_E_ADDED_FOR_TEST, 4499, "a code added by the test")' \
    >>"$tmp/t/include/sandboxio/error-codes.def"
echo 'SBX_ERROR(SBX_E_TOOL_ADDED_FOR_TEST, 1599, "a tool code \"quoted\"")' \
    >>"$tmp/t/src/cli/error-codes.def"
sh "$src/scripts/gen-error-index.sh" "$tmp/t" >/dev/null || fail "the script failed"
grep -qxF '| [SBX_E4499](SBX_E4499.md) | `SBX_E_ADDED_FOR_TEST` | a code added by the test |' \
    "$tmp/t/docs/errors/README.md" || fail "the index lacks the library's new code"
grep -qxF '| [SBX_E1599](SBX_E1599.md) | `SBX_E_TOOL_ADDED_FOR_TEST` | a tool code "quoted" |' \
    "$tmp/t/docs/errors/README.md" || fail "the index lacks the tool's new code"
grep -qF 'docs/errors/SBX_E4499.md \' "$tmp/t/docs/errors/errors.mk" &&
grep -qF 'docs/errors/SBX_E1599.md \' "$tmp/t/docs/errors/errors.mk" ||
    fail "errors.mk does not list the new pages"
[ "$(diff "$tmp/t/docs/errors/errors.mk" "$src/docs/errors/errors.mk" | grep -c '^[<>]')" = 2 ] ||
    fail "errors.mk changed more than the two pages"
echo "PASS: the docs index and page list are derived from the definitions"
