#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio doctor --online` pings the daemon the DSN names and shows
# which engine answered; stopped, the same daemon is reported unreachable
# by its socket path.
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"

OUT="$SBX_DOCKERD_DIR/out"
ERR="$SBX_DOCKERD_DIR/err"
# Under the sanitizers, LeakSanitizer's own tracer can crash at exit with
# every plugin of the build loaded ("Tracer caught signal 11", a fault of the
# tool's stop-the-world, not a leak or a crash of ours; seen with gcc 12's
# runtime): then the same command runs again with the leak check off, and
# says so. doctor --online's leaks are checked by tests/cli's doctor tests.
doctor_online() {
    dsn=$1; shift
    SANDBOXIO_DSN="$dsn" "$SBX" doctor --online "$@" >"$OUT" 2>"$ERR" </dev/null && return 0
    grep -q 'Tracer caught signal' "$ERR" || return 1
    echo "note: LeakSanitizer's tracer crashed; again without the leak check" >&2
    SANDBOXIO_DSN="$dsn" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        "$SBX" doctor --online "$@" >"$OUT" 2>"$ERR" </dev/null
}
doctor_online "$DSN" --json || fail "doctor --online failed: $(cat "$ERR")"
python3 - "$OUT" <<'PY' || fail "the daemon is not reported as answering: $(cat "$OUT")"
import json, sys
d = json.load(open(sys.argv[1]))
e = [e for e in d["online"] if e["scheme"] == "docker"][0]
assert e["status"] == "ok" and e["reached"] and e["detail"].startswith("Docker Engine "), e
PY
doctor_online "docker://$SBX_DOCKERD_DIR/gone.sock" || fail "doctor --online failed: $(cat "$ERR")"
grep -q "docker   UNREACHABLE SBX_E4001: .*connecting to the socket $SBX_DOCKERD_DIR/gone.sock" "$OUT" ||
    fail "the missing socket is not named: $(cat "$OUT")"
expect_no_leftovers
echo PASS
