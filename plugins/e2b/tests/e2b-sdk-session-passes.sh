#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The official e2b SDK (the version pinned in doubles/package-lock.json)
# runs a whole session against the doubles and passes: create, commands
# with stdout, stderr, exit codes, stdin, streaming, kill and timeout, files
# written, read and listed (64 MiB streamed both ways), list by metadata,
# set-timeout, kill. Before it, the rig's self-check proves the oracles are
# in place (Prism validating the control plane, envd's strictness) and the
# fault knobs work. No request or response may break E2B's published spec,
# and nothing of the rig may be left behind.
set -eu
. "$SBX_TEST_SRCDIR/plugins/e2b/tests/e2b-rig.sh"

rig_start
node "$RIG_NODE/rig-selfcheck.js" "$RIG_JSON" || fail "the rig's self-check failed"
node "$RIG_NODE/sdk-session.js" || fail "the e2b SDK's session failed against the doubles"
rig_no_violations
rig_stop
echo "PASS: the e2b SDK's session passed against the spec-checked doubles, nothing left behind"
