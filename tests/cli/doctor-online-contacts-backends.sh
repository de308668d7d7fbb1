#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `doctor` stays offline (no backend is contacted: "online" is null and
# the test backend's ping is never called); `doctor --online` contacts each
# loaded backend and reports, per backend, that it answered (with what
# answered), that it did not (its code and message) or that it has nothing
# to contact. A docker daemon that is not there is named by its socket,
# never as "port 80", in doctor and in run alike.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

use_testcaps
SBX_TESTCAPS_PING=ok
export SBX_TESTCAPS_PING

online() { # the "online" entry of scheme $1, bound to e
    json_check "$(printf '[e for e in d["online"] if e["scheme"] == "%s"] and (lambda e: %s)([e for e in d["online"] if e["scheme"] == "%s"][0])' "$1" "$2" "$1")"
}

sbx doctor --json
expect_status 0
json_check 'd["online"] is None'
[ ! -e "$SBX_TESTCAPS_LOG" ] || fail "the offline doctor called a backend's ping"
sbx doctor
expect_status 0
expect_stdout_has "Backends: not contacted; \`sandboxio doctor --online\` checks"

sbx doctor --online --json
expect_status 0
online testcaps 'e["status"] == "ok" and e["reached"] and e["code"] == 0 and e["detail"] == "testcaps service 1.0" and e["dsn"] == "testcaps://"'
online fake 'e["status"] == "local" and not e["reached"] and e["code"] == 0 and e["message"] is None'
grep -qx ping "$SBX_TESTCAPS_LOG" || fail "--online did not call the backend's ping"
rm -f "$SBX_TESTCAPS_LOG"

SBX_TESTCAPS_PING=down sbx doctor --online --json
expect_status 0
online testcaps 'e["status"] == "SBX_E4001" and not e["reached"] and e["code"] == 4001 and e["message"] == "testcaps: cannot reach down" and e["detail"] is None'
SBX_TESTCAPS_PING=down sbx doctor --online
expect_status 0
expect_stdout_has "Backends contacted (--online):"
expect_stdout_has "testcaps UNREACHABLE SBX_E4001: testcaps: cannot reach down"
expect_stdout_has "fake     nothing to contact (runs in this process)"
# The label says what kind of failure it is, not UNREACHABLE for all.
for case in "refused AUTH SBX_E4002" "nokey AUTH SBX_E4017" "denied AUTH SBX_E4007" \
    "broken ERROR SBX_E4006"; do
    set -- $case
    SBX_TESTCAPS_PING=$1 sbx doctor --online
    expect_status 0
    expect_stdout_has "testcaps $2 $3: testcaps: ping $1"
    ! grep -q "testcaps UNREACHABLE" "$OUT" || fail "a ping that was answered ($1) is labelled UNREACHABLE"
done
# SANDBOXIO_DSN is the DSN contacted for its own scheme (shown redacted).
SANDBOXIO_DSN='testcaps://?token=secret' sbx doctor --online --json
expect_status 0
online testcaps 'e["dsn"] == "testcaps://?token=REDACTED"'
! grep -q secret "$OUT" || fail "the DSN's secret is in the report"
sbx doctor --online --bogus
expect_error 120 SBX_E1018

# docker, when this build has it: a socket nobody listens on.
DOCKER_DIR="$SBX_TEST_BUILDDIR/plugins/docker/.libs"
if [ -f "$DOCKER_DIR/sandboxio-docker.so" ]; then
    SANDBOXIO_PLUGIN_PATH="$DOCKER_DIR:$SANDBOXIO_PLUGIN_PATH"
    DOCKER_HOST="unix://$TMP/none.sock" sbx doctor --online --json
    expect_status 0
    online docker 'e["status"] == "SBX_E4001" and "'"$TMP"'/none.sock: no such file" in e["message"] and "port 80" not in e["message"]'
    sbx run --dsn "docker://$TMP/none.sock" -- true
    expect_error 123 SBX_E4001
    expect_stderr_has "connecting to the socket $TMP/none.sock: no such file (nothing listens there)"
    ! grep -q "port 80" "$ERR" || fail "the docker error still speaks of port 80"
else
    echo "docker is not built here: its part is not run"
fi
