#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# E2B's failures, injected by the rig, reach the caller as the right code
# with E2B's own message, and what may be retried is, once: a bad key
# (401), rate limiting (429, forever and then success), a 503 on create
# (the lost create is looked for, one sandbox results), a 503 on kill, a
# Start stream cut before its end frame, the sandbox expiring mid-command
# (404 after), stdin that envd refuses, and envd slow to come up after
# create.
set -eu
. "$SBX_TEST_SRCDIR/plugins/e2b/tests/e2b-rig.sh"
. "$SBX_TEST_SRCDIR/plugins/e2b/tests/e2b-control.sh"

rig_start
DSN="e2b://?template=base&timeout=120"

# 401: E2B's message kept, nothing retried.
ctl_reset
ctl_fault '{"target":"api","status":401,"times":0,"message":"Invalid API key, it must start with e2b_"}'
expect_failure SBX_E4002 123 "Invalid API key, it must start with e2b_" "$DSN" true
ctl_check "expect(requests.length, 1, 'requests after a 401 (never retried)');"

# 429 forever: rate limited, with the wait E2B asked for.
ctl_reset
ctl_fault '{"target":"api","method":"POST","path":"^/sandboxes$","status":429,"retryAfter":1,"times":0,"message":"Rate limit exceeded"}'
expect_failure SBX_E4016 123 "retry after 1 s" "$DSN" true
ctl_check "expect(requests.filter((r) => r.method === 'POST').length, 4, 'create tries under 429 (the limit)');"
ctl_no_sandboxes

# 429 then success: created once, after the wait.
ctl_reset
ctl_fault '{"target":"api","method":"POST","path":"^/sandboxes$","status":429,"retryAfter":1}'
ctl_echo "$DSN" after-429 "after one 429"
ctl_check "
expect(requests.filter((r) => r.method === 'POST' && r.path === '/sandboxes').map((r) => r.injected ?? 201).join(','), '429,201', 'create tries');
"

# 503 on create, then success: the lost create is looked for before the next try.
ctl_reset
ctl_fault '{"target":"api","method":"POST","path":"^/sandboxes$","status":503}'
ctl_echo "$DSN" after-503 "after a 503 on create"
ctl_check "
const calls = requests.map((r) => r.method + ' ' + r.path.split('?')[0].replace(/[a-z0-9]{20}/, 'ID'));
expect(calls.join(','), 'POST /sandboxes,GET /v2/sandboxes,POST /sandboxes,DELETE /sandboxes/ID', 'calls around a 503 on create');
expect(decodeURIComponent(requests[1].path.split('metadata=')[1]).startsWith('io.sandboxio.create-id='), true, 'the lookup is by the create id');
"
ctl_no_sandboxes

# 503 on kill, then success: DELETE is idempotent and retried.
ctl_reset
ctl_fault '{"target":"api","method":"DELETE","status":503}'
"$SBX" run --dsn "$DSN" -- true || fail "run with a 503 on kill failed"
ctl_check "expect(requests.filter((r) => r.method === 'DELETE').length, 2, 'kill tries after one 503');"
ctl_no_sandboxes

# A Start stream cut before its end-of-stream frame: a protocol error, not an exit.
ctl_reset
ctl_fault '{"target":"envd","path":"/process.Process/Start$","action":"cut-stream","afterEvents":1}'
expect_failure SBX_E4006 123 "cut before its end-of-stream" "$DSN" sh -c 'echo hi; sleep 2'
ctl_no_sandboxes

# The sandbox expires while the command runs (E2B then says 404): its own code.
ctl_reset
ctl_fault '{"target":"envd","path":"/process.Process/Start$","action":"expire-mid-exec","afterMs":300}'
expect_failure SBX_E5040 125 "while the command ran" "$DSN" sleep 10
ctl_no_sandboxes

# stdin that envd refuses (SendInput answers 401): the command, which would
# wait for it for ever, is killed and the run fails with the refusal's code.
ctl_reset
ctl_fault '{"target":"envd","path":"/process.Process/SendInput$","status":401,"times":0}'
set +e
err=$(printf 'hi\n' | timeout 60 "$SBX" run --dsn "$DSN" -- cat 2>&1)
st=$?
set -e
[ "$st" -eq 123 ] || fail "run whose stdin was refused: exit $st, expected 123: $err"
case $err in *SBX_E4002*"stdin of \"cat\" could not be sent"*) ;; *) fail "stdin refused: $err" ;; esac
ctl_no_sandboxes
# stdin a command never reads, as it ended first: not an error.
ctl_reset
printf 'unread\n' | "$SBX" run --dsn "$DSN" -- true || fail "a command that ended before its stdin failed"

# envd answers 502 for 1.5 s after create: the command still runs.
ctl_reset
ctl_fault '{"target":"api","action":"envd-slow","ms":1500}'
ctl_echo "$DSN" slow-envd "with envd slow to come up"
ctl_check "expect(envd.length > 1, true, 'Start was tried again while envd was not up');"
ctl_no_sandboxes

rig_no_violations
rig_stop
echo "PASS: 401, 429, 503, a cut stream, expiry mid-exec, refused stdin and a slow envd each mapped or retried as they should"
