#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# An agent's whole session from a shell, on the fake backend: create with a
# TTL, copy a file and a tree in, run, copy results out, list, kill; then
# nothing of the sandbox is left. (Tar streams: cp-tar-streams.sh.)
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
# A private TMPDIR: the fake keeps sandboxes there, other tests list theirs.
TMPDIR="$TMP/t"; mkdir "$TMPDIR"; export TMPDIR

sbx create --network open --ttl 10m --name job-1
expect_status 0
id=$(cat "$OUT")
case "$id" in fake:????????????) ;; *) fail "create printed '$id', not fake:ID" ;; esac

printf 'a,b\n' >"$TMP/job.csv"
mkdir -p "$TMP/tree/sub"; printf 'deep' >"$TMP/tree/sub/f"; printf 'top' >"$TMP/tree/g"
sbx cp "$TMP/job.csv" "$id:"
expect_status 0
sbx cp "$TMP/tree" "$id:"
expect_status 0
sbx ls "$id"
expect_status 0
expect_stdout "$(printf 'job.csv\ntree/')"
sbx ls "$id:tree/sub"
expect_stdout "f"

# The command's status passes through; files persist between execs.
sbx exec "$id" -- sh -c 'cat tree/sub/f; wc -l < job.csv > out.txt; exit 3'
expect_status 3
expect_stdout "deep"
sbx exec job-1 -- cat out.txt
expect_status 0
expect_stdout "1"
sbx_in 'from stdin' exec -i "$id" -- cat
expect_stdout "from stdin"
sbx exec -e GREETING=hi "$id" -- sh -c 'echo $GREETING'
expect_stdout "hi"

# Out again: a file into a directory, a tree, and a tar stream.
mkdir "$TMP/back"
sbx cp "$id:out.txt" "$TMP/back"
expect_status 0
[ "$(cat "$TMP/back/out.txt")" = 1 ] || fail "out.txt did not come back"
sbx cp "$id:tree" "$TMP/back/copy"
[ "$(cat "$TMP/back/copy/sub/f")" = deep ] || fail "the tree did not come back"
sbx exec "$id" -- sh -c 'mkdir -p made && echo x > made/x'
sbx rm "$id:made/x"
expect_status 0
sbx ls "$id:made"
expect_stdout ""
sbx rm "$id:tree"
expect_error 123 SBX_E4013
sbx rm -r "$id:tree"
expect_status 0

sbx ps --json
expect_status 0
json_check "len(d) == 1 and d[0]['id'] == '$id' and d[0]['name'] == 'job-1' and d[0]['state'] == 'running' and d[0]['expires_ms'] > d[0]['created_ms'] + 500000"
sbx list
expect_stdout_has "$id"
expect_stdout_has "job-1"

sbx kill "$id"
expect_status 0
sbx ps --json
json_check "d == []"
sbx exec "$id" -- true
expect_error 123 SBX_E4004
[ -z "$(ls -A "$TMPDIR")" ] || fail "the sandbox left $(ls -A "$TMPDIR") behind"
echo "PASS: create, cp in and out (files and trees), exec, ls, rm, ps and kill"
