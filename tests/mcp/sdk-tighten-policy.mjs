// Tool arguments tighten the operator's network, memory, CPU and process
// limits for the sandbox a call makes (run, sandbox_create), and a wider
// one is refused with SBX_E3020 before anything is made. "The operator's"
// limit is what the backend would apply: the core's default pids 1024 too.
import assert from 'node:assert/strict';
import { stdioClient, ok, fails } from './client.mjs';

const maxProcs = 'grep "^Max processes" /proc/self/limits | tr -s " " | cut -d" " -f3';

const { client } = await stdioClient(['--dsn', 'local://', '--memory', '256M', '--cpus', '1',
                                      '--timeout', '20s']);

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

// Wider: refused, with the policy's code.
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

// sandbox_create takes the same, for every command of the sandbox.
const box = (await ok(client, 'sandbox_create', { pids: 40, memory_bytes: 128 << 20, cpus: 0.25 })).sandbox_id;
assert.equal((await ok(client, 'sandbox_exec', { sandbox_id: box, argv: ['sh', '-c', maxProcs] })).stdout, '40\n');
await fails(client, 'sandbox_create', { pids: 2000 }, 'SBX_E3020');
await fails(client, 'sandbox_create', { memory_bytes: 1 << 30 }, 'SBX_E3020');
await fails(client, 'sandbox_create', { network: 'open' }, 'SBX_E3020');
await fails(client, 'sandbox_create', { pids: -1 }, 'SBX_E1030');
// sandbox_exec cannot change the sandbox's limits: not one of its arguments.
await fails(client, 'sandbox_exec', { sandbox_id: box, argv: ['true'], pids: 10 }, 'SBX_E1030');
await client.close();

// An allowlist tightens only to hosts the operator allowed (a name without
// a port covers it with any port). The fake cannot enforce an allowlist:
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
console.log('ok: arguments tighten network, memory, cpus and pids, never widen them');
