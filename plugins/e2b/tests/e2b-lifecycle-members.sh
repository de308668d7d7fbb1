#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The e2b plugin's ABI minor 2 members against the rig (lifecycle-members.c:
# open_named, detach, list, attach, set_ttl, pause, resume), every
# control-plane call spec-checked by Prism; the TTL goes to
# POST /sandboxes/{id}/timeout, attach and resume through connect.
set -eu
. "$SBX_TEST_SRCDIR/plugins/e2b/tests/e2b-rig.sh"
. "$SBX_TEST_SRCDIR/plugins/e2b/tests/e2b-control.sh"

rig_start
ctl_reset
SBX_E2B_PLUGIN="$SBX_TEST_BUILDDIR/plugins/e2b/.libs/sandboxio-e2b.so" \
    "$SBX_TEST_BUILDDIR/plugins/e2b/tests/lifecycle-members" || fail "the lifecycle members failed"
ctl_check "
const calls = requests.map((r) => r.method + ' ' + r.path.split('?')[0].replace(/[a-z0-9]{20}/, 'ID'));
expect(calls.filter((c) => c === 'POST /sandboxes').length, 1, 'creates (the second name was refused first)');
const ttl = requests.find((r) => r.path.endsWith('/timeout'));
expect(ttl && ttl.body, '{\"timeout\":3600}', 'set_ttl body');
const create = JSON.parse(requests.find((r) => r.method === 'POST' && r.path === '/sandboxes').body);
expect(create.timeout, 120, 'the TTL as the create timeout');
expect(create.metadata['io.sandboxio.name'], 'keep-1', 'the name label');
expect(create.metadata['io.sandboxio.owner-pid'], undefined, 'no owner pid on a sandbox made to outlive it');
expect(calls.filter((c) => c === 'POST /sandboxes/ID/connect').length, 2, 'connects (attach, resume)');
expect(calls.includes('POST /sandboxes/ID/pause'), true, 'pause');
"
rig_no_violations
ctl_no_sandboxes
rig_stop
echo "PASS: open_named, detach, list, attach, set_ttl, pause and resume against the doubles"
