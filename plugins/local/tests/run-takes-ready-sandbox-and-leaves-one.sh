#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio run` on local:// takes the ready sandbox the last run left, runs
# its command there (nothing the command started outlives the run), has it
# destroyed and leaves a fresh sandbox behind, for its user, DSN and policy
# (a run with another policy misses it and leaves its own); `--fresh`,
# SANDBOXIO_RUN_READY=0 and a network neither take nor leave one; `gc`
# destroys the ready ones and counts them; nothing is left after.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
. "$SBX_TEST_SRCDIR/plugins/local/tests/ready-lib.sh"

# The first run finds none, makes its sandbox, and leaves one.
sbx run -- echo one
expect_status 0
expect_stdout one
expect_made
first=$(wait_ready 1)
"$SBX" ps --dsn local:// | grep -q "local:$first " || fail "ps does not list the ready $first"

# The second takes it (and it is gone after), and leaves another.
sbx run -- echo two
expect_status 0
expect_stdout two
expect_took "$first"
expect_gone "$first"
second=$(wait_ready 1)
[ "$second" != "$first" ] || fail "the sandbox a command ran in is ready again"

# A command's failure is its own; the ready path keeps its exit status.
sbx run -- sh -c 'exit 7'
expect_status 7
expect_took "$second"
third=$(wait_ready 1)

# What the command started is gone when run returns, though the teardown
# of its sandbox is left to the background: nothing of the command remains.
token=$((400000 + $$))
sbx run -- sh -c "sleep $token & echo started"
expect_status 0
expect_stdout started
expect_took "$third"
for f in /proc/[0-9]*/cmdline; do
    [ "$(tr '\0' ' ' <"$f" 2>/dev/null)" != "sleep $token " ] || fail "the command's child outlived the run: $f"
done
expect_gone "$third"
third=$(wait_ready 1)

# Another policy is another key: it misses, and leaves one of its own.
sbx run --pids 900 -- true
expect_status 0
expect_made
wait_ready 2 >/dev/null
other=$(ready_ids | grep -vx "$third")
sbx run --pids 900 -- true
expect_status 0
expect_took "$other"
ready_ids | grep -qx "$third" || fail "a run of another policy took $third"
wait_ready 2 >/dev/null

# Off: neither taken nor left.
before=$(ready_ids | sort)
sbx run --fresh -- true
expect_status 0
! grep -q "sandboxio: run:" "$ERR" || fail "--fresh looked for a ready sandbox"
SANDBOXIO_RUN_READY=0 sbx run -- true
expect_status 0
! grep -q "sandboxio: run:" "$ERR" || fail "SANDBOXIO_RUN_READY=0 looked for a ready sandbox"
sleep 1
[ "$(ready_ids | sort)" = "$before" ] || fail "an off run changed the ready sandboxes"
! ls "$READY"/p.* >/dev/null 2>&1 || fail "an off run started making one"
# Nor with a network: local keeps no detached sandbox with one.
sbx run --allow-host example.com -- true
if [ "$status" -eq 0 ]; then
    ! grep -q "sandboxio: run:" "$ERR" || fail "a run with a network looked for a ready sandbox"
    sleep 1
    [ "$(ready_ids | sort)" = "$before" ] || fail "a run with a network left a ready sandbox"
fi

# gc destroys them, names them, and leaves nothing.
wait_idle >/dev/null
ids=$(ready_ids)
sbx gc local://
expect_status 0
for id in $ids; do
    expect_stdout_has "removed $id from local://: a ready sandbox of \`run\`"
    expect_gone "$id"
done
# The count holds them (and whatever else the backend's own gc found).
n=$(sed -n 's|^\([0-9]*\) removed from local://$|\1|p' "$OUT")
[ "${n:-0}" -ge "$(echo "$ids" | wc -l)" ] || fail "gc counted $n, not the ready sandboxes"
[ -z "$(ls -A "$READY")" ] || fail "gc left files: $(ls -A "$READY" | tr '\n' ' ')"
"$SBX" ps --dsn local:// >"$OUT"
[ "$(wc -l <"$OUT")" -le 1 ] || fail "sandboxes are left: $(cat "$OUT")"
echo "PASS"
