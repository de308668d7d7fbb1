#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The exact requests the daytona backend sends, per policy control and DSN
# option, as the rig's front doors received them (every control-plane call
# and every toolbox call but file contents also validated by Prism against
# Daytona's specs): create carries the snapshot (or a build from the
# image), the target, the owner labels, the lifetime from the DSN's ttl and
# networkBlockAll for no network; every call carries the credential, the
# API key or the JWT with its organisation; a one-shot run is create, the
# wait, delete on the control plane; a policy asking for what the backend
# does not declare is refused before any request.
set -eu
# sandboxio sends a piped stdin to the command (an input call), and under a
# parallel make a test's stdin may be a pipe: the requests counted here are
# those of a run with no input.
exec </dev/null
. "$SBX_TEST_SRCDIR/plugins/daytona/tests/daytona-rig.sh"
. "$SBX_TEST_SRCDIR/plugins/daytona/tests/daytona-control.sh"

rig_start
DSN="daytona://?snapshot=daytona-small"

# --- network none (the default) ----------------------------------------------
ctl_reset
ctl_echo "$DSN" wired "with network none"
ctl_check "
const calls = api.map((r) => r.method + ' ' + r.path.replace(/[0-9a-f-]{36}/, 'ID'));
expect(calls[0], 'POST /sandbox', 'the first call creates');
expect(calls[calls.length - 1], 'DELETE /sandbox/ID', 'the last call deletes');
expect(calls.slice(1, -1).every((c) => c === 'GET /sandbox/ID'), true, 'between them only the wait: ' + calls.join(','));
const auth = 'Bearer ' + process.env.DAYTONA_API_KEY;
expect(api.every((r) => r.headers.authorization === auth), true, 'the key on every control-plane call');
expect(toolbox.every((r) => r.headers.authorization === auth), true, 'the key on every toolbox call');
const b = JSON.parse(api[0].body);
expect(b.snapshot, 'daytona-small', 'snapshot');
expect(b.networkBlockAll, true, 'networkBlockAll for network none');
expect(b.public, false, 'public');
expect(b.ttlMinutes, 60, 'ttlMinutes (the default ttl, 3600 s)');
expect(b.autoStopInterval, 15, 'autoStopInterval');
expect(b.autoDeleteInterval, 0, 'autoDeleteInterval: deleted once stopped');
expect(b.labels['io.sandboxio.sandbox'], '1', 'the mark label');
expect(b.labels['io.sandboxio.owner-pid'] > 0, true, 'the owner pid label');
expect(b.labels['io.sandboxio.ttl'], '3600', 'the ttl label');
expect(typeof b.labels['io.sandboxio.create-id'], 'string', 'the create id label');
expect(Object.keys(b).sort().join(','),
  'autoDeleteInterval,autoStopInterval,labels,networkBlockAll,public,snapshot,ttlMinutes',
  'the members of CreateSandbox sent');
const tb = toolbox.map((r) => r.method + ' ' + r.path.replace(/^\/[0-9a-f-]{36}/, '').split('?')[0]
  .replace(/sandboxio-[0-9a-f-]+/, 'SID').replace(/command\/[0-9a-f-]{36}/, 'command/CMD'));
expect(tb[0], 'GET /work-dir', 'the toolbox is asked for its work dir first');
expect(tb[1] + ' ' + tb[2], 'POST /process/session POST /process/session/SID/exec', 'a session of its own, then the command');
const exec = JSON.parse(toolbox[2].body);
expect(exec.runAsync, true, 'runAsync');
expect(exec.suppressInputEcho, true, 'suppressInputEcho');
expect(exec.command.startsWith(\"'perl' '-e' \"), true, 'the wrapper');
expect(exec.command.endsWith(\" 'echo' 'wired'\"), true, 'argv quoted word by word at the end');
expect(tb.includes('GET /process/session/SID/command/CMD'), true, 'the exit code read from the record');
expect(toolbox.filter((r) => r.method === 'DELETE').map((r) => r.path.split('?')[1].replace(/[^&]*%2F/g, ''))
  .join(','), 'o.000000000',
  'a command that ended by itself: its output chunk removed once read; its session and dir go with the sandbox, not by calls of their own');
"

# --- a command killed at its timeout: its session and dir removed at once ------------
ctl_reset
rc=0
"$SBX" run --dsn "$DSN" --timeout 1 -- sleep 10 || rc=$?
[ "$rc" -eq 124 ] || fail "run past its timeout exited $rc, not 124"
ctl_check "
const tb = toolbox.map((r) => r.method + ' ' + r.path.replace(/^\/[0-9a-f-]{36}/, '').split('?')[0]
  .replace(/sandboxio-[0-9a-f-]+/, 'SID'));
const del = toolbox.filter((r) => r.method === 'DELETE');
expect(tb.filter((c) => c.startsWith('DELETE ')).join(','), 'DELETE /process/session/SID,DELETE /files',
  'the killed command: its session and its dir removed at once');
expect(del[1].path.includes('recursive=true'), true, 'the dir removed recursively');
expect(requests.filter((r) => r.method === 'DELETE').length, 1, 'then the sandbox deleted');
"

# --- two execs in one sandbox: the first's session goes before the second starts ---
ctl_reset
"$SBX" contract "$DSN" --only SBX-PERS-001 >/dev/null || fail "SBX-PERS-001 (two execs in one sandbox) failed"
ctl_check "
const sid = (r) => (/sandboxio-[0-9a-f-]+/.exec(r.path) || [''])[0];
const steps = toolbox.filter((r) => /\/process\/session(\?|$)/.test(r.path) ||
  (r.method === 'DELETE' && /\/process\/session\/|recursive=true/.test(r.path)));
const seen = steps.map((r) => r.method + (r.method === 'POST' ? ' session ' + JSON.parse(r.body).sessionId
  : r.path.includes('/files') ? ' dir ' + sid(r) : ' session ' + sid(r)));
const [a, b] = steps.filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body).sessionId);
expect(seen.join(','), ['POST session ' + a, 'DELETE session ' + a, 'DELETE dir ' + a, 'POST session ' + b].join(','),
  'the session and dir of the first exec removed before the second starts, those of the second go with the sandbox');
const made = requests.filter((r) => r.method === 'POST' && r.path === '/sandbox').length;
expect(requests.filter((r) => r.method === 'DELETE').length, made, 'every sandbox the suite made deleted');
"

# --- the DSN's options: ttl, target, image ---------------------------------------
ctl_reset
"$SBX" run --dsn "daytona://?image=python:3.12-slim&target=eu&ttl=120" -- true ||
    fail "run with image, target and ttl failed"
ctl_check "
const b = JSON.parse(requests.find((r) => r.method === 'POST' && r.path === '/sandbox').body);
expect(b.snapshot, undefined, 'no snapshot with an image');
expect(JSON.stringify(b.buildInfo), JSON.stringify({ dockerfileContent: 'FROM python:3.12-slim\n' }), 'buildInfo');
expect(b.target, 'eu', 'target');
expect(b.ttlMinutes, 2, 'ttlMinutes from ttl=120');
expect(b.autoStopInterval, 2, 'autoStopInterval no longer than the ttl');
expect(b.labels['io.sandboxio.ttl'], '120', 'the ttl label');
"

# --- network open: nothing blocked ---------------------------------------------------
ctl_reset
"$SBX" run --dsn "$DSN" --network open -- true || fail "run with network open failed"
ctl_check "
const b = JSON.parse(requests.find((r) => r.method === 'POST' && r.path === '/sandbox').body);
expect(b.networkBlockAll, undefined, 'no networkBlockAll for network open');
expect(b.networkAllowList, undefined, 'no networkAllowList for network open');
"

# --- stdin: hex lines through the command's input, then its end ----------------------
ctl_reset
out=$(printf 'fed' | "$SBX" run --dsn "$DSN" --stdin -- cat) || fail "run with stdin failed"
[ "$out" = fed ] || fail "stdin came back as '$out'"
ctl_check "
const inputs = toolbox.filter((r) => r.path.endsWith('/input')).map((r) => JSON.parse(r.body).data);
expect(inputs.join(','), 'd666564,e', 'the input calls: the bytes in hex, then the end');
"

# --- a JWT with its organisation instead of a key ----------------------------------
ctl_reset
jwt=$(node -p "require('$RIG_JSON').jwtToken")
org=$(node -p "require('$RIG_JSON').organizationId")
out=$(env -u DAYTONA_API_KEY DAYTONA_JWT_TOKEN="$jwt" DAYTONA_ORGANIZATION_ID="$org" \
    "$SBX" run --dsn "$DSN" -- echo jwt) || fail "run with a JWT failed"
[ "$out" = jwt ] || fail "run with a JWT printed '$out'"
ctl_check "
const all = requests.concat(toolbox);
expect(all.every((r) => r.headers.authorization === 'Bearer $jwt'), true, 'the JWT on every call');
expect(all.every((r) => r.headers['x-daytona-organization-id'] === '$org'), true, 'the organisation on every call');
"

# --- no credential, or a JWT without its organisation: nothing sent --------------------
for creds in "" "DAYTONA_JWT_TOKEN=$jwt"; do
    ctl_reset
    set +e
    # shellcheck disable=SC2086
    err=$(env -u DAYTONA_API_KEY $creds "$SBX" run --dsn "$DSN" -- true 2>&1)
    st=$?
    set -e
    case $err in *SBX_E4017*) ;; *) fail "credentials '$creds': expected SBX_E4017, got (exit $st): $err" ;; esac
    ctl_check "expect(requests.length + toolbox.length, 0, 'requests sent without a credential');"
done

# --- what the backend does not declare: refused before any request ------------------
ctl_policy_refused "$DSN" "--memory 2G" "--cpus 1" "--pids 64" "--disk 1G" "--allow-host 192.0.2.1"

rig_no_violations
ctl_no_sandboxes
rig_stop
echo "PASS: create, toolbox and credential requests exact per policy control, refusals send nothing"
