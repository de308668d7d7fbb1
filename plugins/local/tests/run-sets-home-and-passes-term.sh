#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# On local://, a command's HOME is the work dir unless -e gives one (the
# environment inherits nothing else), in run and in exec; TERM is passed
# only to a command on a terminal (-t with one attached), where -e TERM=...
# wins over ours.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
SANDBOXIO_DSN=local://
SANDBOXIO_LOCAL_RUNDIR="$TMP/rundir"
export SANDBOXIO_LOCAL_RUNDIR
id=
trap '[ -z "$id" ] || "$SBX" kill "$id" >/dev/null 2>&1; rm -rf "$TMP"' EXIT
TERM=sbx-test-term
export TERM

sbx run -- sh -c 'echo "$HOME"; cd && pwd; echo "${TERM-unset}"'
expect_status 0
expect_stdout "$(printf '/work\n/work\nunset')"
sbx run -e HOME=/tmp -- sh -c 'echo "$HOME"'
expect_status 0
expect_stdout /tmp

sbx_tty run -t -- sh -c 'echo "T=$TERM H=$HOME"'
expect_status 0
grep -q "T=sbx-test-term H=/work" "$OUT" || fail "run -t did not get TERM and HOME"
sbx_tty run -t -e TERM=vt100 -- sh -c 'echo "T=$TERM"'
expect_status 0
grep -q "T=vt100" "$OUT" || fail "-e TERM did not win over ours"

sbx create --ttl 5m
expect_status 0
id=$(cat "$OUT")
sbx exec "$id" -- sh -c 'echo "$HOME ${TERM-unset}"'
expect_status 0
expect_stdout "/work unset"
sbx_tty exec -t "$id" -- sh -c 'echo "T=$TERM H=$HOME"'
expect_status 0
grep -q "T=sbx-test-term H=/work" "$OUT" || fail "exec -t did not get TERM and HOME"
sbx_tty exec -t -e TERM=vt100 "$id" -- sh -c 'echo "T=$TERM"'
grep -q "T=vt100" "$OUT" || fail "exec -e TERM did not win over ours"
