#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `exec -i` in a sandbox made by `create` on local://: the handle attached
# by ID gives the command this process's stdin, all of it; the client does
# not read (or close) its own stdin as if it were a descriptor of the
# sandbox's (an attached handle has no allowlist proxy, so none of its
# descriptors). The sandbox stays after the exec, until kill.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
tmp=$(mktemp -d)
SANDBOXIO_LOCAL_RUNDIR="$tmp/rundir"
export SANDBOXIO_LOCAL_RUNDIR
id=
cleanup() {
    [ -z "$id" ] || "$b/src/sandboxio" kill --dsn local:// "$id" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

id=$("$b/src/sandboxio" create --dsn local:// --ttl 5m)
[ -n "$id" ] || fail "create printed no id"
out=$(printf 'line-1\nline-2\n' | timeout 30 "$b/src/sandboxio" exec --dsn local:// -i "$id" -- sh -c 'cat; echo done') ||
    fail "exec -i exited $?"
[ "$out" = "$(printf 'line-1\nline-2\ndone')" ] || fail "the command read '$out', not both lines"
# Twice: the first exec's detach left stdin (fd 0) of the next process alone.
out=$(printf 'again\n' | timeout 30 "$b/src/sandboxio" exec --dsn local:// -i "$id" -- cat) || fail "second exec -i exited $?"
[ "$out" = again ] || fail "the second command read '$out', not 'again'"
"$b/src/sandboxio" ps --dsn local:// | grep -qF "$id" || fail "sandbox $id is gone after exec"
"$b/src/sandboxio" kill --dsn local:// "$id" || fail "kill $id failed"
id=
echo "PASS: exec -i in a created local sandbox gets all of stdin; the sandbox stays until kill"
