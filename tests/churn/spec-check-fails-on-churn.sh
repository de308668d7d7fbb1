#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The spec check turns red on real churn (E2B's older copies; Daytona's
# specs have no history here) and on a spec copy that drops, renames or
# retypes an element the e2b or the daytona adapter uses, naming exactly
# that element (spec-check-fails.js lists the cases); node and the check's
# npm packages are needed, no rig.
set -eu
: "${SBX_TEST_SRCDIR:?run this test through make check}"
: "${SBX_TEST_BUILDDIR:?run this test through make check}"
skip() {
    if [ "${CI:-}" = true ]; then
        echo "FAIL: $* (CI=true: the spec check's tests must run, not skip)" >&2
        exit 1
    fi
    echo "SKIP: $*"
    exit 77
}
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$SBX_TEST_SRCDIR/tests/churn/churn-npm.sh"
TMP=$(mktemp -d /tmp/sbx-churn-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
node "$CHURN_DIR/spec-check-fails.js" "$SBX_TEST_SRCDIR" "$TMP" || fail "the spec check did not name what changed (above)"
echo "PASS: the spec check names each used element the older and the mutated copies lack or retype (e2b, daytona)"
