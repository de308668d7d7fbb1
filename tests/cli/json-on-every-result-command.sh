#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --json on exec, cp, rm, kill, pause, resume and ttl: one JSON value on
# stdout in the shape each --help and docs/cli.md give, with "error" (the
# code, id, message and docs_url) where a step failed; the exit status is
# the same as without --json.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
# A private TMPDIR: the fake keeps sandboxes there.
TMPDIR="$TMP/t"; mkdir "$TMPDIR"; export TMPDIR

sbx create --network open --ttl 10m
expect_status 0
id=$(cat "$OUT")

sbx exec --json "$id" -- sh -c 'echo out; echo err >&2; exit 3'
expect_status 3
json_check 'd["exit_code"] == 3 and d["stdout"] == "out\n" and d["stderr"] == "err\n"'
json_check 'd["id"] == "'"$id"'" and d["timed_out"] is False'
[ "$(wc -l <"$OUT")" -eq 1 ] || fail "exec --json is not one line"
sbx exec --json "$id" -- /no/such/program
expect_status 127
sbx exec --json fake:nosuchsandbox -- true
[ "$status" -ne 0 ] || fail "exec --json in a missing sandbox succeeded"
json_check '"error" in d and d["error"]["id"].startswith("SBX_E")'
sbx exec --json -t "$id" -- true
expect_error 120 SBX_E1018

printf 'data' >"$TMP/f"
sbx cp --json "$TMP/f" "$id:f"
expect_status 0
json_check 'd == {"src": "'"$TMP/f"'", "dst": "'"$id:f"'", "ok": True}'
sbx cp --json "$id:nothere" "$TMP/g"
[ "$status" -ne 0 ] || fail "cp --json of a missing file succeeded"
json_check 'd["ok"] is False and d["error"]["id"].startswith("SBX_E") and d["error"]["message"]'
sbx cp --json "$id:f" -
expect_error 120 SBX_E1018

sbx rm --json "$id:f"
expect_status 0
json_check 'd == {"id": "'"$id"'", "path": "f", "ok": True}'
sbx rm --json "$id:f"
[ "$status" -ne 0 ] || fail "rm --json of a missing file succeeded"
json_check 'd["ok"] is False and d["error"]["id"].startswith("SBX_E")'

sbx ttl --json "$id" 20m
expect_status 0
json_check 'd == [{"id": "'"$id"'", "ok": True, "ttl_ms": 1200000}]'
sbx pause --json "$id"
expect_status 0
json_check 'd == [{"id": "'"$id"'", "ok": True}]'
sbx resume --json "$id"
expect_status 0
json_check 'd == [{"id": "'"$id"'", "ok": True}]'
sbx kill --json "$id" fake:nosuchsandbox
[ "$status" -ne 0 ] || fail "kill --json of a missing sandbox succeeded"
json_check 'len(d) == 2 and d[0] == {"id": "'"$id"'", "ok": True}'
json_check 'd[1]["id"] == "fake:nosuchsandbox" and d[1]["ok"] is False and d[1]["error"]["id"].startswith("SBX_E")'
