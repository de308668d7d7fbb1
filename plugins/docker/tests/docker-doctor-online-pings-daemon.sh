#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio doctor --online` pings the daemon the DSN names and shows
# which engine answered; stopped, the same daemon is reported unreachable
# by its socket path.
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"

OUT="$SBX_DOCKERD_DIR/out"
ERR="$SBX_DOCKERD_DIR/err"
SANDBOXIO_DSN="$DSN" "$SBX" doctor --online --json >"$OUT" 2>"$ERR" </dev/null ||
    fail "doctor --online failed: $(cat "$ERR")"
python3 - "$OUT" <<'PY' || fail "the daemon is not reported as answering: $(cat "$OUT")"
import json, sys
d = json.load(open(sys.argv[1]))
e = [e for e in d["online"] if e["scheme"] == "docker"][0]
assert e["status"] == "ok" and e["reached"] and e["detail"].startswith("Docker Engine "), e
PY
SANDBOXIO_DSN="docker://$SBX_DOCKERD_DIR/gone.sock" "$SBX" doctor --online >"$OUT" 2>"$ERR" </dev/null ||
    fail "doctor --online failed: $(cat "$ERR")"
grep -q "docker   UNREACHABLE SBX_E4001: .*connecting to the socket $SBX_DOCKERD_DIR/gone.sock" "$OUT" ||
    fail "the missing socket is not named: $(cat "$OUT")"
expect_no_leftovers
echo PASS
