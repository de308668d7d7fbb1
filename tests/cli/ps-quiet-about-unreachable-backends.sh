#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A bare `ps` on a machine where the docker and e2b plugins are installed
# but no daemon answers and no key is set lists what it can, says nothing
# on stderr and exits 0; `ps -v` names the backends it skipped in one line;
# `ps --dsn docker://` is an error (a backend named must answer); the table
# keeps its columns aligned when an id is as long as docker's.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
use_testcaps
# exec and attach (list); the second sandbox's id as long as a docker one.
SBX_TESTCAPS_CAPS=80001
long=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
SBX_TESTCAPS_LIST_ID=$long
# No daemon where docker looks, no key for e2b or daytona.
DOCKER_HOST="unix://$TMP/no-docker.sock"
unset E2B_API_KEY DAYTONA_API_KEY DOCKER_TLS_VERIFY DOCKER_CERT_PATH
# Private places for the fake's and local's sandboxes.
TMPDIR="$TMP/t"; mkdir "$TMPDIR"
SANDBOXIO_LOCAL_RUNDIR="$TMP/rundir"
export SBX_TESTCAPS_CAPS SBX_TESTCAPS_LIST_ID DOCKER_HOST TMPDIR SANDBOXIO_LOCAL_RUNDIR
unset SANDBOXIO_DSN

sbx create --dsn fake:// --network open --name a-rather-long-sandbox-name
expect_status 0
fake_id=$(cat "$OUT")

sbx ps
expect_status 0
[ ! -s "$ERR" ] || fail "a bare ps wrote on stderr"
expect_stdout_has "testcaps:$long"
expect_stdout_has "$fake_id"
# Every column starts where its heading does, on every line.
python3 - "$OUT" <<'PY' || fail "the columns are not aligned"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
starts = lambda l: [m.start() for m in re.finditer(r'(?:^|(?<=  ))\S', l)]
head = starts(lines[0])
assert len(head) == 4, lines[0]
for l in lines[1:]:
    assert starts(l) == head, (l, head)
PY

sbx ps --json
expect_status 0
[ ! -s "$ERR" ] || fail "ps --json wrote on stderr"
json_check "sorted(s['id'] for s in d) == sorted(['testcaps:tc1', 'testcaps:$long', '$fake_id'])"

# The backends this build has (a build without them, e.g. the minimal
# build's, has nothing to skip).
built() { [ -f "$SBX_TEST_BUILDDIR/plugins/$1/.libs/sandboxio-$1.so" ]; }
sbx ps -v
expect_status 0
if built docker || built e2b; then
    [ "$(wc -l <"$ERR")" -eq 1 ] || fail "ps -v wrote more or less than one line on stderr"
    expect_stderr_has "not listed, cannot be reached: "
    if built docker; then expect_stderr_has "docker:// (SBX_E4001)"; fi
    if built e2b; then expect_stderr_has "e2b:// (SBX_E4017)"; fi
else
    [ ! -s "$ERR" ] || fail "ps -v named a backend, and none is unreachable"
fi
expect_stdout_has "$fake_id"

# A backend named on purpose must answer.
if built docker; then
    sbx ps --dsn docker://
    expect_error 123 SBX_E4001
fi

sbx kill "$fake_id"
expect_status 0
echo "PASS: bare ps is quiet about unreachable backends and exits 0; -v names them in one line; --dsn must answer; columns aligned"
