#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# sandboxio doctor shows, for each cloud adapter built (e2b, daytona), the
# date of the provider specs it is built against: the newest date of a
# stored copy in plugins/SCHEME/spec/SOURCES, in the text report and as
# spec_date in --json; a backend without stored specs has a null spec_date.
set -eu
: "${SBX_TEST_SRCDIR:?run this test through make check}"
: "${SBX_TEST_BUILDDIR:?run this test through make check}"
fail() { echo "FAIL: $*" >&2; exit 1; }
SBX="$SBX_TEST_BUILDDIR/src/sandboxio"

text=$("$SBX" doctor) || fail "sandboxio doctor failed"
json=$("$SBX" doctor --json | tr -d ' \n') || fail "sandboxio doctor --json failed"
checked=
for scheme in e2b daytona; do
    printf '%s' "$json" | grep -q "\"scheme\":\"$scheme\",\"status\":\"ok\"" || continue
    want=$(sh "$SBX_TEST_SRCDIR/scripts/spec-date.sh" "$SBX_TEST_SRCDIR/plugins/$scheme/spec/SOURCES" X |
        sed 's/.*"\(.*\)"/\1/')
    echo "$text" | grep -q "^Provider specs the cloud adapters are built against" ||
        fail "doctor shows no spec dates: $text"
    echo "$text" | grep -qx "  $scheme: $want" || fail "doctor does not show $scheme's spec date $want: $text"
    got=$(printf '%s' "$json" | grep -o "\"scheme\":\"$scheme\",\"status\":\"ok\"[^}]*\"spec_date\":\"[0-9-]*\"" |
        sed 's/.*"spec_date":"//; s/"$//')
    [ "$got" = "$want" ] || fail "doctor --json gives $scheme's spec_date as '$got', not $want"
    checked="$checked $scheme:$want"
done
[ -n "$checked" ] || { echo "SKIP: no cloud adapter is built"; exit 77; }
fake=$("$SBX" plugins --json | tr -d ' \n' | grep -o '"scheme":"fake"[^}]*"spec_date":null' || true)
[ -n "$fake" ] || fail "plugins --json does not give the fake backend a null spec_date"
echo "PASS: doctor shows the spec dates$checked"
