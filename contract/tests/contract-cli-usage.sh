#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio contract` usage: a missing or bad DSN and a pattern matching no
# case are usage errors (120); a backend that cannot be loaded fails (1)
# with a closing line; --list, --only and --json work.
set -u
cli="$SBX_TEST_BUILDDIR/src/sandboxio"
work=$(mktemp -d "${TMPDIR:-/tmp}/sbxc-usage.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

expect_status() {
    want=$1; shift
    "$@" >"$work/out" 2>"$work/err"
    got=$?
    [ "$got" -eq "$want" ] || { cat "$work/out" "$work/err"; fail "'$*' exited $got, expected $want"; }
}

expect_status 120 "$cli" contract
grep -q 'SBX_E1018' "$work/err" || fail "no DSN: no SBX_E1018 in: $(cat "$work/err")"
expect_status 120 "$cli" contract fake:// extra
expect_status 120 "$cli" contract --bogus fake://
expect_status 120 "$cli" contract 'no-scheme-here'
grep -q 'SBX_E1003' "$work/err" || fail "bad DSN: no SBX_E1003 in: $(cat "$work/err")"
expect_status 120 "$cli" contract fake:// --only 'NO-SUCH-CASE-*'

expect_status 1 "$cli" contract sbxcnosuchplugin://
grep -q 'SBX_E2001' "$work/err" || fail "missing plugin: no SBX_E2001 in: $(cat "$work/err")"
[ "$(tail -n 1 "$work/out")" = "0 passed, 1 failed, 0 skipped" ] ||
    fail "missing plugin: closing line '$(tail -n 1 "$work/out")'"

expect_status 1 "$cli" contract sbxcnosuchplugin:// --json
grep -q '"error": *"plugin .sbxcnosuchplugin.: SBX_E2001' "$work/out" ||
    fail "missing plugin with --json: no error document: $(cat "$work/out")"
grep -q '"failed": *1' "$work/out" || fail "missing plugin with --json: summary lacks the failure"

expect_status 0 "$cli" contract --list
grep -Eq '^SBX-EXEC-001 +MUST +exec +exit codes 0\.\.255$' "$work/out" ||
    fail "--list lacks SBX-EXEC-001: $(head -n 5 "$work/out")"
[ "$(grep -c '^SBX-' "$work/out")" -ge 30 ] || fail "--list shows fewer than 30 cases"
expect_status 0 "$cli" contract --help
grep -q -- '--junit FILE' "$work/out" || fail "--help does not describe --junit"

expect_status 0 "$cli" contract fake:// --only 'SBX-LIFE-*'
[ "$(grep -c '^PASS SBX-LIFE-' "$work/out")" -eq 4 ] || fail "--only SBX-LIFE-*: $(cat "$work/out")"
[ "$(tail -n 1 "$work/out")" = "4 passed, 0 failed, 0 skipped" ] || fail "--only closing line"
expect_status 0 "$cli" contract --only 'exit codes*' fake://
grep -q '^PASS SBX-EXEC-001 ' "$work/out" || fail "--only on a name did not select SBX-EXEC-001"

# --json: stdout is one JSON document; the lines go to stderr.
expect_status 0 "$cli" contract fake:// --json --only 'SBX-ISO-001'
grep -q '^SKIP SBX-ISO-001 ' "$work/err" || fail "--json: lines not on stderr"
grep -q '"status": *"skip"' "$work/out" || fail "--json: no skip status in: $(cat "$work/out")"
grep -q '"skipped": *1' "$work/out" || fail "--json: summary lacks skipped 1"
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["summary"]=={"passed":0,"failed":0,"skipped":1}, d["summary"]; assert d["cases"][0]["id"]=="SBX-ISO-001"' \
        "$work/out" || fail "--json output is not the expected JSON"
fi
echo ok
