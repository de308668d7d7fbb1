// SPDX-License-Identifier: Apache-2.0
// Tool arguments tighten the operator's network, memory, CPU, process and
// disk limits and minimum tier for the sandbox a call makes (run,
// sandbox_create), the timeout and output cap of a command, and may set
// only the variables --agent-env allows; a wider one is refused with
// SBX_E3020 before anything is made. "The operator's" limit is what the
// backend would apply: the core's default pids 1024 and disk 1G too.
import assert from 'node:assert/strict';
import { stdioClient, ok, fails } from './client.mjs';

const maxProcs = 'grep "^Max processes" /proc/self/limits | tr -s " " | cut -d" " -f3';

const { client } = await stdioClient(['--dsn', 'local://', '--memory', '256M', '--cpus', '1',
                                      '--timeout', '20s', '--output-cap', '64k', '--min-tier', 'namespace',
                                      '--env', 'FIXED=operator', '--env-pass', 'HOME',
                                      '--agent-env', 'AGENT_*', '--agent-env', 'FIXED', '--agent-env', 'HOME']);
const clean = { exit_code: 0, signal: null, timed_out: false, oom_killed: false, net_refused: 0, stdout: '', stderr: '',
  stderr_encoding: 'utf-8', stdout_truncated: false, stderr_truncated: false, stdout_encoding: 'utf-8' };
const exactly = (r) => { const { duration_ms, ...rest } = r; assert.equal(typeof duration_ms, 'number'); return rest; };

// Tighter: applied to the sandbox of the call.
assert.equal((await ok(client, 'run', { argv: ['sh', '-c', maxProcs], pids: 50 })).stdout, '50\n');
assert.equal((await ok(client, 'run', { argv: ['sh', '-c', maxProcs] })).stdout, '1024\n',
             'the operator\'s default applies without an argument');
const oom = await ok(client, 'run', { argv: ['python3', '-c', 'x = bytearray(200 << 20)'],
                                      memory_bytes: 64 << 20 });
assert.equal(oom.oom_killed, true, `memory_bytes was not applied: ${JSON.stringify(oom)}`);
assert.equal((await ok(client, 'run', { argv: ['python3', '-c', 'x = bytearray(100 << 20)'] })).exit_code, 0,
             'the operator\'s 256M holds 100M');
assert.equal((await ok(client, 'run', { argv: ['true'], cpus: 0.5 })).exit_code, 0);
assert.equal((await ok(client, 'run', { argv: ['true'], network: 'none' })).exit_code, 0);
assert.equal((await ok(client, 'run', { code: 'echo tight', language: 'sh', pids: 20 })).stdout, 'tight\n');

// Disk: a smaller work dir holds less; the minimum tier only rises.
const fill = 'dd if=/dev/zero of=f bs=1M count=4 2>/dev/null && echo wrote';
assert.deepEqual(exactly(await ok(client, 'run', { argv: ['sh', '-c', fill], disk_bytes: 1 << 20 })),
                 { ...clean, exit_code: 1 }, 'disk_bytes was not applied');
assert.deepEqual(exactly(await ok(client, 'run', { argv: ['sh', '-c', fill] })), { ...clean, stdout: 'wrote\n' },
                 'the operator\'s default 1G holds 4M');
assert.deepEqual(exactly(await ok(client, 'run', { argv: ['true'], min_tier: 'namespace' })), { ...clean, stdout: '' });
const tier = await fails(client, 'run', { argv: ['true'], min_tier: 'microvm' }, 'SBX_E3001');
assert.match(tier.message, /microvm/);
// Timeout and output cap: shorter and smaller only.
const slow = await ok(client, 'run', { argv: ['sleep', '5'], timeout_ms: 300 });
assert.equal(slow.timed_out, true);
assert.ok(slow.duration_ms < 4000, `timeout_ms was not applied: ${slow.duration_ms}`);
assert.deepEqual(exactly(await ok(client, 'run', { argv: ['sh', '-c', 'printf 0123456789'], output_cap_bytes: 4 })),
                 { ...clean, stdout: '0123', stdout_truncated: true });
// env: only the names --agent-env allows, never one the operator's policy sets.
assert.deepEqual(exactly(await ok(client, 'run', { argv: ['sh', '-c', 'echo "$AGENT_A $FIXED"'],
                                                   env: { AGENT_A: 'mine' } })),
                 { ...clean, stdout: 'mine operator\n' });
assert.deepEqual(exactly(await ok(client, 'run', { argv: ['true'], env: {} })), { ...clean, stdout: '' });
let e = await fails(client, 'run', { argv: ['true'], env: { AGENT_A: 'ok', PATH: '/evil' } }, 'SBX_E3020');
assert.equal(e.message, 'env.PATH: the server\'s --agent-env does not allow this name');
e = await fails(client, 'run', { argv: ['true'], env: { FIXED: 'agent' } }, 'SBX_E3020');
assert.equal(e.message, 'env.FIXED: the server\'s policy sets this variable');
await fails(client, 'run', { argv: ['true'], env: { HOME: '/tmp' } }, 'SBX_E3020');
await fails(client, 'run', { argv: ['true'], env: { AGENT_A: 1 } }, 'SBX_E1030');

// Wider: refused, with the policy's code.
e = await fails(client, 'run', { argv: ['true'], timeout_ms: 30000 }, 'SBX_E3020');
assert.equal(e.message, 'timeout_ms 30000 is longer than the server\'s --timeout (20000 ms)');
e = await fails(client, 'run', { argv: ['true'], output_cap_bytes: 65537 }, 'SBX_E3020');
assert.equal(e.message, 'output_cap_bytes 65537 is more than the server\'s --output-cap (65536)');
await fails(client, 'run', { argv: ['true'], output_cap_bytes: 0 }, 'SBX_E3020');
e = await fails(client, 'run', { argv: ['true'], disk_bytes: 2 ** 31 }, 'SBX_E3020');
assert.equal(e.message, 'disk_bytes 2147483648 is more than the server allows (1073741824)');
e = await fails(client, 'run', { argv: ['true'], min_tier: 'none' }, 'SBX_E3020');
assert.equal(e.message, 'min_tier none is weaker than the server\'s --min-tier namespace');
await fails(client, 'run', { argv: ['true'], pids: 5000 }, 'SBX_E3020');
await fails(client, 'run', { argv: ['true'], memory_bytes: 512 << 20 }, 'SBX_E3020');
await fails(client, 'run', { argv: ['true'], cpus: 1.5 }, 'SBX_E3020');
await fails(client, 'run', { argv: ['true'], network: 'open' }, 'SBX_E3020');
await fails(client, 'run', { argv: ['true'], network: 'allowlist', allow_hosts: ['example.com'] }, 'SBX_E3020');
await fails(client, 'run', { argv: ['true'], allow_hosts: ['example.com'] }, 'SBX_E3020');

// Not a limit at all: the schema's error.
await fails(client, 'run', { argv: ['true'], pids: 0 }, 'SBX_E1030');
await fails(client, 'run', { argv: ['true'], pids: '5' }, 'SBX_E1030');
await fails(client, 'run', { argv: ['true'], memory_bytes: 0 }, 'SBX_E1030');
await fails(client, 'run', { argv: ['true'], cpus: 0 }, 'SBX_E1030');
await fails(client, 'run', { argv: ['true'], cpus: 'all' }, 'SBX_E1030');
await fails(client, 'run', { argv: ['true'], network: 'some' }, 'SBX_E1030');
await fails(client, 'run', { argv: ['true'], network: 'allowlist' }, 'SBX_E1030');
await fails(client, 'run', { argv: ['true'], network: 'none', allow_hosts: ['example.com'] }, 'SBX_E1030');
await fails(client, 'run', { argv: ['true'], allow_hosts: [] }, 'SBX_E1030');
await fails(client, 'run', { argv: ['true'], disk_bytes: 0 }, 'SBX_E1030');
await fails(client, 'run', { argv: ['true'], min_tier: 'strong' }, 'SBX_E1030');
await fails(client, 'run', { argv: ['true'], timeout_ms: 0 }, 'SBX_E1030');

// sandbox_create takes the same, for every command of the sandbox.
const box = (await ok(client, 'sandbox_create', { pids: 40, memory_bytes: 128 << 20, cpus: 0.25 })).sandbox_id;
assert.equal((await ok(client, 'sandbox_exec', { sandbox_id: box, argv: ['sh', '-c', maxProcs] })).stdout, '40\n');
await fails(client, 'sandbox_create', { pids: 2000 }, 'SBX_E3020');
await fails(client, 'sandbox_create', { memory_bytes: 1 << 30 }, 'SBX_E3020');
await fails(client, 'sandbox_create', { network: 'open' }, 'SBX_E3020');
await fails(client, 'sandbox_create', { pids: -1 }, 'SBX_E1030');
await fails(client, 'sandbox_create', { disk_bytes: 2 ** 31 }, 'SBX_E3020');
await fails(client, 'sandbox_create', { min_tier: 'none' }, 'SBX_E3020');
const small = (await ok(client, 'sandbox_create', { disk_bytes: 1 << 20 })).sandbox_id;
assert.deepEqual(exactly(await ok(client, 'sandbox_exec', { sandbox_id: small, argv: ['sh', '-c', fill] })),
                 { ...clean, exit_code: 1 });
await fails(client, 'sandbox_exec', { sandbox_id: small, argv: ['true'], env: { PATH: '/x' } }, 'SBX_E3020');
await fails(client, 'sandbox_exec', { sandbox_id: small, argv: ['true'], timeout_ms: 60000 }, 'SBX_E3020');
// sandbox_exec cannot change the sandbox's limits: not one of its arguments.
await fails(client, 'sandbox_exec', { sandbox_id: box, argv: ['true'], pids: 10 }, 'SBX_E1030');
await client.close();

// An allowlist tightens only to hosts and ports the operator allowed (a name
// without a port means ports 80 and 443: tighten-allow-host-ports.mjs). The fake cannot enforce an allowlist:
// a call that passes the check reaches the core's refusal, SBX_E3003.
const fake = (await stdioClient(['--dsn', 'fake://', '--network', 'allowlist', '--allow-host', 'a.example',
                                 '--allow-host', 'b.example:443'])).client;
await fails(fake, 'run', { argv: ['true'], allow_hosts: ['c.example'] }, 'SBX_E3020');
await fails(fake, 'run', { argv: ['true'], allow_hosts: ['b.example'] }, 'SBX_E3020');
await fails(fake, 'run', { argv: ['true'], allow_hosts: ['a.example', 'evil.example'] }, 'SBX_E3020');
await fails(fake, 'run', { argv: ['true'], network: 'open' }, 'SBX_E3020');
await fails(fake, 'run', { argv: ['true'], allow_hosts: ['a.example:80', 'b.example:443'] }, 'SBX_E3003');
await fails(fake, 'sandbox_create', { allow_hosts: ['A.example'] }, 'SBX_E3003');
await fake.close();

// Under --network open any allowlist is tighter.
const open = (await stdioClient(['--dsn', 'fake://', '--network', 'open'])).client;
await fails(open, 'run', { argv: ['true'], allow_hosts: ['anything.example'] }, 'SBX_E3003');
await open.close();

// Fail closed: a server started without --agent-env takes no env at all.
const closed = (await stdioClient(['--dsn', 'fake://'])).client;
e = await fails(closed, 'run', { argv: ['true'], env: { ANY: 'x' } }, 'SBX_E3020');
assert.equal(e.message, 'env.ANY: the server allows no variables from tools (no --agent-env)');
await closed.close();
console.log('ok: arguments tighten network, limits, disk, tier, timeout, output cap and env, never widen them');
