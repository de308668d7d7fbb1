#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Fail closed: the default policy asks for no network, which the fake
# backend cannot guarantee, so nothing runs and run exits 122. Other
# controls the fake cannot honour are refused the same way.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

marker="$TMP/ran"
sbx run --dsn fake:// -- sh -c "touch '$marker'; echo ran"
expect_error 122 SBX_E3002
expect_stdout ""
[ ! -e "$marker" ] || fail "the command ran despite the refusal"

sbx run --dsn fake:// --network none -- echo x
expect_error 122 SBX_E3002

sbx run --dsn fake:// --network open --min-tier namespace -- echo x
expect_error 122 SBX_E3001

sbx run --dsn fake:// --network open --memory 64M -- echo x
expect_error 122 SBX_E3004

sbx run --dsn fake:// --network open --pids 10 -- echo x
expect_error 122 SBX_E3006

sbx run --dsn fake:// --allow-host example.com -- echo x
expect_error 122 SBX_E3003
