#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The sandbox `run` leaves ready ends at its TTL (SANDBOXIO_RUN_READY_TTL,
# here 3 s) with no process, socket or record left, whether or not another
# run comes; the next run drops its file and makes its own; the slots of
# makers that died are taken over, and cleared by `gc`; a run killed after
# it took one leaves a claim that `gc` clears, destroying its sandbox.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
SANDBOXIO_RUN_READY_TTL=3s
. "$SBX_TEST_SRCDIR/plugins/local/tests/ready-lib.sh"

sbx run -- true
expect_status 0
id=$(wait_ready 1)
p=$(init_pid "$id")
[ -e "/proc/$p" ] || fail "the ready sandbox's init $p is not running"
sleep 4
expect_gone "$id"
sbx run -- true
expect_status 0
expect_made
! ready_ids | grep -qx "$id" || fail "the file of the ended $id is still there"
# Its maker may still be at work (slow under the sanitizers): the next run
# must find what it left, not make a second one beside it.
wait_ready 1 >/dev/null

# Makers that died left their slots (p.KEY.N with a dead pid): a run takes
# them over and leaves its sandbox all the same, and gc clears what is left.
"$SBX" run -- true 2>/dev/null
id=$(wait_ready 1)
key=$(ls "$READY" | sed -n 's/^r\.\([0-9a-f]*\)\..*/\1/p')
dead=$(sh -c 'echo $$')
echo "$dead" >"$READY/p.$key.0"
echo "$dead" >"$READY/p.$key.1"
sbx run -- true
expect_status 0
expect_took "$id"
i=0
until [ "$(ready_ids | wc -l)" -eq 1 ] && [ ! -e "$READY/p.$key.0" ]; do
    i=$((i + 1))
    [ $i -le 300 ] || fail "no sandbox made over a dead maker's slot: $(ls -A "$READY" | tr '\n' ' ')"
    sleep 0.1
done
[ -e "$READY/p.$key.1" ] || fail "the second dead slot went without gc"
sbx gc local://
expect_status 0
! ls -d "$READY"/p.* >/dev/null 2>&1 || fail "gc left the slot of a dead maker: $(ls -A "$READY")"

# A run killed while its command runs in the sandbox it took.
SANDBOXIO_RUN_READY_TTL=60s
export SANDBOXIO_RUN_READY_TTL
sleep 4   # the one the last run left (3 s TTL) ends
ready=$(ready_ids)
[ -z "$ready" ] || expect_gone "$ready"
"$SBX" run -- true 2>/dev/null
id=$(wait_ready 1)
"$SBX" run -- sleep 600 2>"$ERR" &
run=$!
i=0
until grep -q "took the ready sandbox $id" "$ERR"; do
    i=$((i + 1)); [ $i -le 100 ] || fail "the run did not take $id"; sleep 0.1
done
kill -KILL "$run"
wait "$run" 2>/dev/null || true
ls "$READY"/c."$id".* >/dev/null 2>&1 || fail "no claim of $id"
sbx gc local://
expect_status 0
expect_stdout_has "removed $id from local://: taken by a \`run\` that is gone"
expect_gone "$id"
! ls "$READY"/c.* >/dev/null 2>&1 || fail "gc left a claim"
echo "PASS"
