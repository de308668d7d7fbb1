#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# docker's named sandboxes from the CLI: the name is the container's
# ("sandboxio-NAME", taken once), a sandbox outlives the command that made
# it, ttl moves its end (a labelled volume) and gc or ps remove it once
# passed, pause and resume go through the engine, and nothing is left.
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"
T=$SBX_DOCKERD_DIR

run() { # ARGS...: sandboxio against the private daemon; sets status, fills $T/out, $T/err
    set +e
    "$SBX" "$@" >"$T/out" 2>"$T/err" </dev/null
    status=$?
    set -e
}
expect() { # STATUS [CODE]
    [ "$status" -eq "$1" ] || { cat "$T/err" >&2; fail "exit status $status, expected $1"; }
    [ -z "${2:-}" ] || grep -q "$2" "$T/err" || fail "stderr lacks $2: $(cat "$T/err")"
}

run create --dsn "$DSN" --ttl 10m --name job-1
expect 0
id=$(cat "$T/out")
case "$id" in docker:*) ;; *) fail "create printed '$id'" ;; esac
[ "$(docker inspect -f '{{.Name}}' "${id#docker:}")" = /sandboxio-job-1 ] ||
    fail "the container is not named sandboxio-job-1"
[ -z "$(docker inspect -f '{{index .Config.Labels "io.sandboxio.owner-pid"}}' "${id#docker:}")" ] ||
    fail "a sandbox with a TTL of its own carries an owner pid (gc would end it with its creator)"
run create --dsn "$DSN" --ttl 10m --name job-1
expect 123 SBX_E4015

printf 'hello' >"$T/in.txt"
run cp --dsn "$DSN" "$T/in.txt" "$id:"
expect 0
run exec --dsn "$DSN" job-1 -- cat in.txt
expect 0
[ "$(cat "$T/out")" = hello ] || fail "exec by name did not read the copied file"
short=$(printf '%s' "${id#docker:}" | cut -c1-12)
run exec --dsn "$DSN" "$short" -- true
expect 0

# pause and resume through the engine; a paused sandbox refuses commands.
run pause --dsn "$DSN" "$id"
expect 0
[ "$(docker inspect -f '{{.State.Status}}' "${id#docker:}")" = paused ] || fail "not paused"
run ps --dsn "$DSN" --json
grep -q '"state": "paused"' "$T/out" || fail "ps does not say paused: $(cat "$T/out")"
run exec --dsn "$DSN" "$id" -- true
[ "$status" -ne 0 ] || fail "a paused sandbox ran a command"
run resume --dsn "$DSN" "$id"
expect 0
run exec --dsn "$DSN" "$id" -- cat in.txt
expect 0

# ttl moves the end: a volume labelled for the container; gc removes it once passed.
run ttl --dsn "$DSN" "$id" 2s
expect 0
[ "$(docker volume ls -q --filter label=io.sandboxio.ttl-for | wc -l)" -eq 1 ] ||
    fail "ttl did not leave exactly one TTL volume"
run ttl --dsn "$DSN" "$id" 1s
[ "$(docker volume ls -q --filter label=io.sandboxio.ttl-for | wc -l)" -eq 1 ] ||
    fail "a second ttl kept the first volume"
sleep 2
run gc "$DSN"
expect 0
grep -q 'TTL passed' "$T/out" || fail "gc did not remove the sandbox past its TTL: $(cat "$T/out")"
[ -z "$(docker ps -aq --filter label=io.sandboxio.sandbox)" ] || fail "gc left the container"

# A short TTL: ps no longer shows it, and removes it.
run create --dsn "$DSN" --ttl 1s
id=$(cat "$T/out")
sleep 2
run ps --dsn "$DSN" --json
expect 0
[ "$(tr -d ' \n' <"$T/out")" = '[]' ] || fail "ps lists a sandbox past its TTL: $(cat "$T/out")"
run exec --dsn "$DSN" "$id" -- true
expect 123 SBX_E4004

run create --dsn "$DSN" --ttl 5m --name job-2
run kill --dsn "$DSN" job-2
expect 0
expect_no_leftovers
echo "PASS: named, attached, paused, moved TTL, removed at its end, nothing left"
