#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every entry of docs/churn-log.md (a "## " heading after the preamble's
# field list) has each field, non-empty: Date (YYYY-MM-DD), Provider (a
# provider of tests/churn/lib/providers.js), Versions affected, What
# changed, What the adapter does, Users must act (yes or no, first).
# Proved red on a copy with one field dropped.
set -eu
: "${SBX_TEST_SRCDIR:?run this test through make check}"
fail() { echo "FAIL: $*" >&2; exit 1; }
LOG="$SBX_TEST_SRCDIR/docs/churn-log.md"
PROVIDERS=$(sed -n 's/^  \([a-z0-9]*\): {$/\1/p' "$SBX_TEST_SRCDIR/tests/churn/lib/providers.js" | tr '\n' ' ')

# check FILE: prints each problem, exits 1 if any.
check() {
    awk -v providers=" $PROVIDERS " '
    function field(name, value) { got[name] = value }
    function done_entry() {
        if (title == "") return
        n++
        split("Date|Provider|Versions affected|What changed|What the adapter does|Users must act", want, "|")
        for (i = 1; i <= 6; i++)
            if (!(want[i] in got) || got[want[i]] == "") { print title ": no " want[i]; bad = 1 }
        if (("Date" in got) && got["Date"] !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$/) { print title ": Date is not YYYY-MM-DD"; bad = 1 }
        if (("Provider" in got) && index(providers, " " got["Provider"] " ") == 0) { print title ": unknown provider " got["Provider"]; bad = 1 }
        if (("Users must act" in got) && got["Users must act"] !~ /^(yes|no)[:.,]/) { print title ": Users must act does not start with yes or no"; bad = 1 }
        delete got
    }
    /^## / { done_entry(); title = substr($0, 4); next }
    title != "" && /^- \*\*[^*]*:\*\*/ {
        name = $0; sub(/^- \*\*/, "", name); sub(/:\*\*.*/, "", name)
        value = $0; sub(/^- \*\*[^*]*:\*\* */, "", value)
        field(name, value)
    }
    END { done_entry(); if (n == 0) { print "no entries"; bad = 1 } ; if (!bad) print n " entries"; exit bad }
    ' "$1"
}
out=$(check "$LOG") || fail "docs/churn-log.md: $out"
echo "docs/churn-log.md: $out, each complete"
TMP=$(mktemp /tmp/sbx-churnlog-XXXXXX)
trap 'rm -f "$TMP"' EXIT
awk '/^- \*\*What the adapter does:\*\*/ && !dropped { dropped = 1; next } { print }' "$LOG" >"$TMP"
if red=$(check "$TMP"); then fail "an entry without What the adapter does passed: $red"; fi
echo "$red" | grep -q ": no What the adapter does$" || fail "the dropped field was not named: $red"
echo "PASS: every churn log entry has its six fields"
