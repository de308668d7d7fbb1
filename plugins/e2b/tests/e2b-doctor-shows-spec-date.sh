#!/bin/sh
# sandboxio doctor shows the date of the E2B specs the plugin is built
# against: the newest date of a stored copy in plugins/e2b/spec/SOURCES,
# in the text report and as spec_date in --json (and in plugins --json).
set -eu
: "${SBX_TEST_SRCDIR:?run this test through make check}"
: "${SBX_TEST_BUILDDIR:?run this test through make check}"
fail() { echo "FAIL: $*" >&2; exit 1; }
SBX="$SBX_TEST_BUILDDIR/src/sandboxio"
want=$(awk '$4 ~ /^[0-9a-f]+$/ && $5 ~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$/ { print $5 }' \
    "$SBX_TEST_SRCDIR/plugins/e2b/spec/SOURCES" | sort | tail -n 1)
[ -n "$want" ] || fail "no dated copy in plugins/e2b/spec/SOURCES"

text=$("$SBX" doctor) || fail "sandboxio doctor failed"
echo "$text" | grep -q "^Provider specs the cloud adapters are built against" ||
    fail "doctor shows no spec dates: $text"
echo "$text" | grep -qx "  e2b: $want" || fail "doctor does not show e2b's spec date $want: $text"
json=$("$SBX" doctor --json) || fail "sandboxio doctor --json failed"
got=$(printf '%s' "$json" | tr -d ' \n' | grep -o '"scheme":"e2b","status":"ok"[^}]*"spec_date":"[0-9-]*"' |
    sed 's/.*"spec_date":"//; s/"$//')
[ "$got" = "$want" ] || fail "doctor --json gives e2b's spec_date as '$got', not $want"
fake=$("$SBX" plugins --json | tr -d ' \n' | grep -o '"scheme":"fake"[^}]*"spec_date":null' || true)
[ -n "$fake" ] || fail "plugins --json does not give the fake backend a null spec_date"
echo "PASS: doctor shows e2b's spec date $want"
