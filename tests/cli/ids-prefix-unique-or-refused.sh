#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A sandbox is found by BACKEND:ID, by its id alone, by a unique prefix of
# it or by its name; a prefix that two sandboxes share is refused with both
# listed (SBX_E1042), and nothing is done to either.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
TMPDIR="$TMP/t"; mkdir "$TMPDIR"; export TMPDIR

# Seventeen ids of 16 possible first digits: two share one.
i=0
while [ $i -lt 17 ]; do
    sbx create --network open --ttl 5m
    expect_status 0
    cat "$OUT" >>"$TMP/ids"
    i=$((i + 1))
done
first=$(head -n 1 "$TMP/ids")
sbx exec "${first#fake:}" -- true
expect_status 0
sbx exec "$(printf '%s' "$first" | cut -c1-11)" -- true
expect_status 0

shared=$(cut -c6 "$TMP/ids" | sort | uniq -d | head -n 1)
[ -n "$shared" ] || fail "no two ids share a first digit"
sbx exec "$shared" -- touch marker
expect_error 120 SBX_E1042
for id in $(grep "^fake:$shared" "$TMP/ids"); do
    expect_stderr_has "$id"
done
sbx exec "fake:$shared" -- true
expect_error 120 SBX_E1042
sbx exec nosuchsandbox -- true
expect_error 123 SBX_E4004

# kill takes many; one missing spares not the others.
sbx kill $(cat "$TMP/ids") nosuchsandbox
expect_error 123 SBX_E4004
sbx ps --json
json_check "d == []"
echo "PASS: ids, prefixes and names found; a shared prefix refused with its candidates"
