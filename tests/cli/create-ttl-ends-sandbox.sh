#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A sandbox made by create ends at its TTL with no client left: ps no longer
# shows it, exec finds nothing, and nothing of it stays on the host; ttl
# moves the end, pause and resume keep files.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
TMPDIR="$TMP/t"; mkdir "$TMPDIR"; export TMPDIR

sbx create --network open --ttl 1s
id=$(cat "$OUT")
sbx ps --json
json_check "len(d) == 1"
sleep 1.5
sbx ps --json
json_check "d == []"
sbx exec "$id" -- true
expect_error 123 SBX_E4004
[ -z "$(ls -A "$TMPDIR")" ] || fail "an expired sandbox left $(ls -A "$TMPDIR") behind"

# ttl extends it past its first end.
sbx create --network open --ttl 1s --name keep
id=$(cat "$OUT")
sbx ttl keep 10m
expect_status 0
sleep 1.5
sbx exec keep -- sh -c 'echo kept > f'
expect_status 0
sbx pause "$id"
expect_status 0
sbx ps --json
json_check "d[0]['state'] == 'paused'"
sbx exec "$id" -- true
expect_error 123 SBX_E4015
sbx resume "$id"
sbx exec "$id" -- cat f
expect_stdout "kept"
sbx ttl "$id" 0
expect_error 120 SBX_E1015
sbx kill "$id"
expect_status 0
echo "PASS: the TTL ends a sandbox, ttl moves it, pause and resume keep files"
