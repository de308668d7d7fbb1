#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs started together never get the same sandbox: of the runs that find
# one ready sandbox, one takes it (a rename in the ready directory), the
# others make their own. Each command finds /work empty and marks it, then
# waits for the others to start; no sandbox is named by two runs' traces,
# and at most two sandboxes (the bound per key) are ready at the end.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
. "$SBX_TEST_SRCDIR/plugins/local/tests/ready-lib.sh"

"$SBX" run -- true 2>/dev/null
wait_ready 1 >/dev/null
for round in 1 2 3; do
    for i in 1 2 3 4; do
        "$SBX" run -- sh -c "[ -z \"\$(ls -A /work)\" ] || { echo 'not empty'; exit 3; }
            touch /work/run-$i; sleep 0.5; ls -A /work" >"$TMP/out.$round.$i" 2>"$TMP/err.$round.$i" &
    done
    wait
    for i in 1 2 3 4; do
        [ "$(cat "$TMP/out.$round.$i")" = "run-$i" ] ||
            fail "round $round run $i saw: $(cat "$TMP/out.$round.$i" "$TMP/err.$round.$i")"
    done
    n=$(wait_idle)
    [ "$n" -ge 1 ] && [ "$n" -le 2 ] || fail "round $round left $n ready sandboxes: $(ls -A "$READY")"
done
took=$(cat "$TMP"/err.* | sed -n 's/^sandboxio: run: took the ready sandbox //p')
[ -n "$took" ] || fail "no run took a ready sandbox"
[ "$(echo "$took" | sort | uniq -d)" = "" ] || fail "two runs took the same sandbox: $took"
[ "$(echo "$took" | wc -l)" -le 6 ] || fail "more sandboxes taken than were ready: $took"
echo "PASS"
