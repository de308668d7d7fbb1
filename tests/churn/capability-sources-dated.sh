#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every cloud backend's doc page (docs/backends/NAME.md, NAME a provider of
# tests/churn/lib/providers.js) names the provider document and the date
# checked for its tier and for each capability the built plugin declares
# (sandboxio plugins --json). Proved red too: a copy of the e2b page
# without the stdin row must fail, naming stdin.
set -eu
: "${SBX_TEST_SRCDIR:?run this test through make check}"
: "${SBX_TEST_BUILDDIR:?run this test through make check}"
fail() { echo "FAIL: $*" >&2; exit 1; }
if ! command -v node >/dev/null 2>&1; then
    [ "${CI:-}" = true ] && fail "node is not installed (CI=true: this test must run)"
    echo "SKIP: node is not installed (Debian: nodejs)"
    exit 77
fi
CHURN="$SBX_TEST_SRCDIR/tests/churn"
TMP=$(mktemp -d /tmp/sbx-capsrc-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
"$SBX_TEST_BUILDDIR/src/sandboxio" plugins --json >"$TMP/plugins.json" || fail "sandboxio plugins --json failed"
names=$(node --input-type=module -e "
    import { PROVIDERS } from '$CHURN/lib/providers.js';
    console.log(Object.keys(PROVIDERS).join(' '));")
for name in $names; do
    doc="$SBX_TEST_SRCDIR/docs/backends/$name.md"
    [ -f "$doc" ] || fail "$name has no doc page docs/backends/$name.md"
    # shellcheck disable=SC2046
    set -- $(node -e "
        const p = require('$TMP/plugins.json').find((x) => x.scheme === '$name' && x.status === 'ok');
        console.log(p ? [p.tier, ...p.capabilities].join(' ') : '-');")
    node "$CHURN/cap-sources.js" "$doc" "$@" || fail "$name declares what its page gives no dated source for (above)"
    echo "$name: tier ${1} and $(($# - 1)) declared capabilities, each with a dated source"
done

# Red: without the stdin row, the check must fail and name stdin.
grep -v '^| stdin |' "$SBX_TEST_SRCDIR/docs/backends/e2b.md" >"$TMP/e2b.md"
set +e
node "$CHURN/cap-sources.js" "$TMP/e2b.md" microvm exec stdin >"$TMP/red.out"
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "the check passed a page without the stdin row (exit $rc)"
grep -q ": stdin: declared, but no row gives its source" "$TMP/red.out" || fail "the check did not name stdin: $(cat "$TMP/red.out")"
echo "PASS: every declared capability and tier of the cloud backends has a dated source"
