#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# create, exec, cp, ls, rm and ttl refuse bad input with the exact code and
# create nothing.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
TMPDIR="$TMP/t"; mkdir "$TMPDIR"; export TMPDIR

sbx create --network open --ttl 0
expect_error 120 SBX_E1015
sbx create --network open --ttl soon
expect_error 120 SBX_E1015
sbx create --network open --name Bad/Name
expect_error 120 SBX_E1040
sbx create --network open -e TOKEN=x
expect_error 120 SBX_E1018
sbx create
expect_error 122 SBX_E3002
sbx create --network open extra
expect_error 120 SBX_E1018
sbx create --network open --name twice
expect_status 0
sbx create --network open --name twice
expect_error 123 SBX_E4015
sbx exec
expect_error 120 SBX_E1018
sbx exec twice
expect_error 120 SBX_E1018
sbx cp "$TMP/a" "$TMP/b"
expect_error 120 SBX_E1018
sbx cp twice:a twice:b
expect_error 120 SBX_E1018
sbx cp twice:missing "$TMP/x"
expect_error 123 SBX_E4004
sbx ls twice:nope
expect_error 123 SBX_E4004
sbx rm twice
expect_error 120 SBX_E1018
sbx ttl twice
expect_error 120 SBX_E1018
sbx kill twice
expect_status 0
sbx ps --json
json_check "d == []"
echo "PASS: bad input refused with its code"
