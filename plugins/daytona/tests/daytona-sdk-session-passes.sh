#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The official @daytonaio/sdk (the version pinned in doubles/package-lock.json)
# runs a whole session against the doubles and passes: create and wait
# (polling), process execute, session commands with stdout and stderr
# apart, logs followed, input, files uploaded, downloaded, listed (64 MiB
# streamed both ways), list by label, delete. Before it, the rig's
# self-check proves the oracles are in place (Prism validating both
# doubles, the proxy's checks) and the fault knobs work. No request or
# response may break Daytona's published specs, and nothing of the rig may
# be left behind.
set -eu
. "$SBX_TEST_SRCDIR/plugins/daytona/tests/daytona-rig.sh"

rig_start
node "$RIG_NODE/rig-selfcheck.js" "$RIG_JSON" || fail "the rig's self-check failed"
# The SDK refuses to guess when a dotenv file in its working directory names
# the endpoint: it runs in the rig's own directory, which has none.
(cd "$RIG_DIR" && node "$RIG_NODE/sdk-session.js") || fail "the Daytona SDK's session failed against the doubles"
rig_no_violations
rig_stop
echo "PASS: the Daytona SDK's session passed against the spec-checked doubles, nothing left behind"
