#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A mistyped command or long option is a usage error as before (exit 120,
# SBX_E1018) that names the command or option of the table it is nearest.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

expect_hint() {
    grep -qF -- "$1" "$ERR" || fail "no hint '$1' on stderr"
}

sbx exce
expect_error 120 SBX_E1018
expect_hint "did you mean 'exec'?"
sbx help exce
expect_error 120 SBX_E1018
expect_hint "did you mean 'exec'?"
sbx plugin
expect_error 120 SBX_E1018
expect_hint "did you mean 'plugins'?"
sbx run --timout 5 -- true
expect_error 120 SBX_E1018
expect_hint "did you mean --timeout?"
sbx run --netwrok=open -- true
expect_error 120 SBX_E1018
expect_hint "did you mean --network?"
sbx ps --jsno
expect_error 120 SBX_E1018
expect_hint "did you mean --json?"
sbx --hlep
expect_error 120 SBX_E1018
expect_hint "did you mean --help?"

# Nothing near: no guess.
sbx frobnicate
expect_error 120 SBX_E1018
if grep -q "did you mean" "$ERR"; then fail "a guess for a word near nothing"; fi
sbx run --bogus -- true
expect_error 120 SBX_E1018
if grep -q "did you mean" "$ERR"; then fail "a guess for an option near nothing"; fi
[ ! -s "$OUT" ] || fail "a usage error wrote to stdout"
