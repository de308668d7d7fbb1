#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The exact requests the e2b backend sends, per policy control, as the
# rig's front door and envd double received them (every control-plane
# request also validated by Prism against E2B's spec): create carries the
# template, the DSN's timeout as the sandbox's TTL, secure, the owner
# labels and the network as E2B expresses it; a one-shot run is three
# round trips (create, one Start stream, kill); a policy asking for what
# E2B cannot set per sandbox is refused before any request.
set -eu
# sandboxio sends a piped stdin to the command (Start with stdin, then
# CloseStdin), and under a parallel make a test's stdin is a pipe: the
# requests counted here are those of a run with no input.
exec </dev/null
. "$SBX_TEST_SRCDIR/plugins/e2b/tests/e2b-rig.sh"
. "$SBX_TEST_SRCDIR/plugins/e2b/tests/e2b-control.sh"

rig_start
DSN="e2b://?template=base&timeout=120"

# --- network none (the default) ----------------------------------------------
ctl_reset
ctl_echo "$DSN" wired "with network none"
ctl_check "
expect(api.map((r) => r.method + ' ' + r.path.replace(/[a-z0-9]{20}/, 'ID')).join(','),
  'POST /sandboxes,DELETE /sandboxes/ID', 'the control-plane calls of a one-shot run');
expect(api.every((r) => r.headers['x-api-key'] === process.env.E2B_API_KEY), true, 'X-API-Key on every call');
const b = JSON.parse(api[0].body);
expect(b.templateID, 'base', 'templateID');
expect(b.timeout, 120, 'timeout (the TTL)');
expect(b.secure, true, 'secure');
expect(b.allow_internet_access, false, 'allow_internet_access for network none');
expect(JSON.stringify(b.network), '{\"allowPublicTraffic\":false}', 'network');
expect(b.metadata['io.sandboxio.sandbox'], '1', 'the mark label');
expect(b.metadata['io.sandboxio.owner-pid'] > 0, true, 'the owner pid label');
expect(b.metadata['io.sandboxio.ttl'], '120', 'the ttl label');
expect(Object.keys(b).sort().join(','), 'allow_internet_access,metadata,network,secure,templateID,timeout', 'the members of NewSandbox sent');
// A Start the proxy turned away (envd not up yet, on a loaded machine) is
// tried again by design: only what envd served is counted.
const served = envd.filter((r) => !r.proxy502);
expect(envd.every((r) => !r.proxy502 || r.path === '/process.Process/Start'), true, 'only Start is tried again');
expect(served.length, 1, 'envd requests of a one-shot run (one Start stream: ' +
  JSON.stringify(envd.map((r) => [r.method, r.path, r.status, r.proxy502 ? 'proxy502' : 'served'])) + ')');
const s = served[0];
expect(s.method + ' ' + s.path, 'POST /process.Process/Start', 'the envd call');
expect(s.headers['content-type'], 'application/connect+json', 'Start content type');
expect(s.headers['connect-protocol-version'], '1', 'Connect-Protocol-Version');
expect(typeof s.headers['x-access-token'] === 'string' && s.headers['x-access-token'].length > 0, true, 'X-Access-Token');
expect(/^[a-z0-9]{20}$/.test(s.headers['e2b-sandbox-id']), true, 'E2b-Sandbox-Id');
"

# --- network open -------------------------------------------------------------------
ctl_reset
"$SBX" run --dsn "$DSN" --network open -- true || fail "run with network open failed"
ctl_check "
const b = JSON.parse(requests.find((r) => r.method === 'POST' && r.path === '/sandboxes').body);
expect(b.allow_internet_access, true, 'allow_internet_access for network open');
"

# --- stdin and a timeout: the input RPCs, Connect's timeout as envd's backstop -----
ctl_reset
out=$(printf 'fed' | "$SBX" run --dsn "$DSN" --stdin --timeout 30 -- cat) || fail "run with stdin failed"
[ "$out" = fed ] || fail "stdin came back as '$out'"
ctl_check "
const served = envd.filter((r) => !r.proxy502);
expect(served.map((r) => r.path).join(','),
  '/process.Process/Start,/process.Process/SendInput,/process.Process/CloseStdin', 'envd calls with stdin');
expect(served[0].headers['connect-timeout-ms'], '40000', 'Connect-Timeout-Ms: the timeout and a margin');
"

# --- what E2B cannot set per sandbox: refused before any request ------------------
ctl_policy_refused "$DSN" "--memory 64M" "--cpus 1" "--pids 64" "--disk 1G" "--allow-host 192.0.2.1"

rig_no_violations
ctl_no_sandboxes
rig_stop
echo "PASS: create and exec requests exact per policy control, refusals send nothing"
