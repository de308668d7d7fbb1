#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# On a machine without slirp4netns (here: SANDBOXIO_SLIRP4NETNS naming a
# missing program), `sandboxio run --dsn local:// --network open` is a
# policy refusal: exit 122 with SBX_E3025 naming the missing tool (not the
# API-argument SBX_E1001 and the usage exit 120), and nothing runs. The first example of sandboxio(1) runs as written on
# the default backend.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
err=$(mktemp)
out=$(mktemp)
trap 'rm -f "$err" "$out"' EXIT
fail() { echo "FAIL: $*" >&2; cat "$err" >&2; exit 1; }

set +e
SANDBOXIO_SLIRP4NETNS=/nonexistent/slirp4netns \
    "$b/src/sandboxio" run --dsn local:// --network open -- sh -c 'echo ran' >"$out" 2>"$err" </dev/null
status=$?
set -e
[ "$status" -eq 122 ] || fail "exit $status, expected 122"
grep -q "sandboxio: SBX_E3025: " "$err" || fail "no SBX_E3025"
grep -q "see: .*SBX_E3025" "$err" || fail "no page of SBX_E3025"
grep -q "slirp4netns is not installed" "$err" || fail "the missing tool is not named"
[ ! -s "$out" ] || fail "the command ran: $(cat "$out")"

# The man page's first example, taken from the page itself, on local://.
example=$(sed -n '/^\.SH EXAMPLES/,/^\.SH/{/^\.nf/{n;p;q}}' "$SBX_TEST_SRCDIR/docs/man/sandboxio.1" |
    sed 's/\\-/-/g')
case $example in sandboxio\ *) ;; *) fail "no first example found: '$example'" ;; esac
unset SANDBOXIO_DSN
set +e
eval "\"\$b/src/\"$example" >"$out" 2>"$err" </dev/null
status=$?
set -e
[ "$status" -eq 0 ] || fail "'$example' exited $status"
[ "$(cat "$out")" = hello ] || fail "'$example' printed '$(cat "$out")'"
echo "PASS: without slirp4netns --network open is refused as policy (122, SBX_E3025); '$example' runs"
