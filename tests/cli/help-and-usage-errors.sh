#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --help works everywhere (stdout, exit 0), as does sandboxio alone; version
# --json; unknown commands and options
# are usage errors (stderr, exit 120, SBX_E1018); options after the command
# belong to the command.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

for args in "--help" "-h" "help" "help run" "run --help" "run -h" "plugins --help" \
            "doctor --help" "version --help" "help --help"; do
    # shellcheck disable=SC2086
    sbx $args
    expect_status 0
    grep -q "^Usage: sandboxio" "$OUT" || fail "'$args' printed no usage on stdout"
    [ ! -s "$ERR" ] || fail "'$args' wrote to stderr"
done

# Every command the global usage lists has its own --help.
sbx --help
commands=$(sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' "$OUT")
[ -n "$commands" ] || fail "the global usage lists no command"
for cmd in $commands; do
    sbx "$cmd" --help
    expect_status 0
    grep -q "^Usage: sandboxio" "$OUT" || fail "'$cmd --help' printed no usage on stdout"
    [ ! -s "$ERR" ] || fail "'$cmd --help' wrote to stderr"
done

sbx --version
expect_status 0
grep -qx "sandboxio [0-9.]* (libsandboxio [0-9.]*, plugin ABI 1\.4)" "$OUT" || fail "bad --version line"
sbx version
expect_status 0
grep -qx "sandboxio [0-9.]* (libsandboxio [0-9.]*, plugin ABI 1\.4)" "$OUT" || fail "bad version line"

# Alone, sandboxio prints its usage and commands on stdout: not an error.
sbx
expect_status 0
grep -q "^Usage: sandboxio" "$OUT" || fail "'sandboxio' alone printed no usage on stdout"
grep -q "^  run " "$OUT" || fail "'sandboxio' alone lists no command"
[ ! -s "$ERR" ] || fail "'sandboxio' alone wrote to stderr"

sbx version --json
expect_status 0
json_check "d['sandboxio'] == d['libsandboxio'] and d['plugin_abi'] == {'major': 1, 'minor': 4}"
sbx version --bogus
expect_error 120 SBX_E1018

# mcp shares run's policy options' help, so -e too.
sbx mcp -e NOEQUALS
expect_error 120 SBX_E1018
sbx mcp -e
expect_error 120 SBX_E1018

sbx frobnicate
expect_error 120 SBX_E1018
sbx --bogus
expect_error 120 SBX_E1018
sbx -x
expect_error 120 SBX_E1018
sbx run --bogus -- echo x
expect_error 120 SBX_E1018
sbx run --dsn
expect_error 120 SBX_E1018
sbx plugins --bogus
expect_error 120 SBX_E1018
sbx plugins extra
expect_error 120 SBX_E1018
sbx doctor -x
expect_error 120 SBX_E1018
sbx version --bogus
expect_error 120 SBX_E1018
sbx help frobnicate
expect_error 120 SBX_E1018
[ ! -s "$OUT" ] || fail "a usage error wrote to stdout"

# Options after CMD are CMD's: neither --json nor --help is taken by run.
sbx run --network open -- sh -c 'echo "$1"' sh --json
expect_status 0
expect_stdout "--json"
sbx run --network open sh -c 'echo "$1"' sh --help
expect_status 0
expect_stdout "--help"
