#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Daytona's failures, injected by the rig, reach the caller as the right
# code with Daytona's own message, and what may be retried is: a bad key
# (401, never retried), rate limiting on create (429 for ever: the tries
# and the wait Daytona asked for; 429 once: created after it), a 503 on
# create (the lost create looked for by its label before the next try), a
# 503 from the toolbox on an idempotent call (retried), the sandbox
# deleted while a command runs (404 after: its own code), and a sandbox
# that never leaves `creating` (SBX_E4070 with the state, and deleted).
set -eu
. "$SBX_TEST_SRCDIR/plugins/daytona/tests/daytona-rig.sh"
. "$SBX_TEST_SRCDIR/plugins/daytona/tests/daytona-control.sh"

rig_start
DSN="daytona://?snapshot=daytona-small"

# 401: Daytona's message kept, nothing retried.
ctl_reset
ctl_fault '{"target":"api","status":401,"times":0,"message":"Invalid credentials"}'
expect_failure SBX_E4002 123 "Invalid credentials" "$DSN" true
ctl_check "expect(requests.length, 1, 'requests after a 401 (never retried)');"

# 429 for ever on create: rate limited, with the wait Daytona asked for.
ctl_reset
ctl_fault '{"target":"api","method":"POST","path":"^/sandbox$","status":429,"retryAfter":1,"times":0,"message":"ThrottlerException: Too Many Requests"}'
expect_failure SBX_E4016 123 "retry after 1 s" "$DSN" true
ctl_check "
const posts = requests.filter((r) => r.method === 'POST');
expect(posts.length, 4, 'create tries under 429 (the limit)');
expect(posts.every((r) => r.injected === 429), true, 'each answered 429');
"
ctl_no_sandboxes

# 429 once: created after the wait.
ctl_reset
ctl_fault '{"target":"api","method":"POST","path":"^/sandbox$","status":429,"retryAfter":1}'
t0=$(date +%s%N)
out=$("$SBX" run --dsn "$DSN" -- echo after-429) || fail "run after one 429 failed"
t1=$(date +%s%N)
[ "$out" = after-429 ] || fail "run after one 429 printed '$out'"
[ $(((t1 - t0) / 1000000)) -ge 1000 ] || fail "the create was tried again before the 1 s Daytona asked for"
ctl_check "
expect(requests.filter((r) => r.method === 'POST' && r.path === '/sandbox').map((r) => r.injected ?? 200).join(','), '429,200', 'create tries');
"

# 503 on create, then success: the lost create is looked for by its label before the next try.
ctl_reset
ctl_fault '{"target":"api","method":"POST","path":"^/sandbox$","status":503}'
ctl_echo "$DSN" after-503 "after a 503 on create"
ctl_check "
const calls = requests.map((r) => r.method + ' ' + r.path.split('?')[0]);
expect(calls.slice(0, 3).join(','), 'POST /sandbox,GET /sandbox,POST /sandbox', 'calls around a 503 on create');
const labels = JSON.parse(new URL(requests[1].path, 'http://x').searchParams.get('labels'));
expect(Object.keys(labels).join(','), 'io.sandboxio.create-id', 'the lookup is by the create id');
// The front door answers an injected fault unread: the same body went again in the next try.
expect(labels['io.sandboxio.create-id'], JSON.parse(requests[2].body).labels['io.sandboxio.create-id'], 'the create id of the lost call');
"
ctl_no_sandboxes

# 503 from the toolbox on a listing (idempotent): tried again, the command's output whole.
ctl_reset
ctl_fault '{"target":"toolbox","method":"GET","path":"^/files$","status":503}'
ctl_echo "$DSN" after-toolbox-503 "after a toolbox 503"
ctl_check "expect(toolbox.filter((r) => r.injected === 503).length, 1, 'one toolbox 503 answered and got over');"
ctl_no_sandboxes

# The sandbox is deleted while the command runs (404 from then on): its own code.
ctl_reset
ctl_fault '{"target":"toolbox","path":"/exec$","action":"delete-mid-exec","afterMs":500}'
expect_failure SBX_E5040 125 "while the command ran" "$DSN" sleep 10
ctl_no_sandboxes

# A sandbox that never leaves `creating`: the wait's bound, Daytona's state named, nothing left.
ctl_reset
ctl_fault '{"target":"api","path":"^/sandbox$","action":"stuck-creating"}'
expect_failure SBX_E4070 123 "Daytona still reports it creating" "$DSN&start_timeout=2" true
ctl_check "
const calls = requests.map((r) => r.method + ' ' + r.path.replace(/[0-9a-f-]{36}/, 'ID'));
const polls = calls.filter((c) => c === 'GET /sandbox/ID').length;
expect(polls > 1, true, 'the state was polled');
// Pauses of a quarter of the wait so far: some 22 looks in 2 s, where
// pauses that never grew (10 ms) would make over 100.
expect(polls <= 30, true, 'the wait polls less often as it goes on (' + polls + ' looks)');
expect(calls[calls.length - 1], 'DELETE /sandbox/ID', 'the sandbox that never started is deleted');
"
ctl_no_sandboxes

rig_no_violations
rig_stop
echo "PASS: 401, 429, 503 on create and on the toolbox, a delete mid-exec and a sandbox stuck in creating each mapped or retried as they should"
