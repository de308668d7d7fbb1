// SPDX-License-Identifier: Apache-2.0
// The official SDK client over streamable HTTP, two clients side by side:
// every tool, sessions isolated (ids of one are unknown to the other), 50
// concurrent calls, DELETE ending a session destroys its sandboxes.
import assert from 'node:assert/strict';
import { httpClient, ok, fails, exact } from './client.mjs';
import { httpServer } from './http-server.mjs';
import { localInits, waitGone } from './procs.mjs';

const token = 'test-token-' + process.pid;
const server = await httpServer(['--timeout', '20s'], { SANDBOXIO_MCP_TOKEN: token });

const a = (await httpClient(server.url, token)).client;
const b = (await httpClient(server.url, token)).client;
assert.equal(a.getServerVersion().name, 'sandboxio');
assert.equal((await a.listTools()).tools.length, 8);

const clean = { exit_code: 0, signal: null, timed_out: false, oom_killed: false, net_refused: 0, stderr: '',
  stderr_encoding: 'utf-8', stdout_truncated: false, stderr_truncated: false, stdout_encoding: 'utf-8' };
assert.deepEqual(exact(await ok(a, 'run', { argv: ['echo', 'over http'] })), { ...clean, stdout: 'over http\n' });
await fails(a, 'run', { argv: ['true'], timeout_ms: 60000 }, 'SBX_E3020');

const boxA = (await ok(a, 'sandbox_create')).sandbox_id;
const initsA = localInits(server.p.pid);
const boxB = (await ok(b, 'sandbox_create')).sandbox_id;
const initsB = localInits(server.p.pid).filter((pid) => !initsA.includes(pid));
assert.equal(initsA.length, 1);
assert.equal(initsB.length, 1);
assert.deepEqual(await ok(a, 'sandbox_write_file', { sandbox_id: boxA, path: 'f', content: 'A' }), { path: 'f', bytes: 1 });
assert.deepEqual(await ok(a, 'sandbox_read_file', { sandbox_id: boxA, path: 'f' }),
                 { path: 'f', content: 'A', encoding: 'utf-8', bytes: 1 });
assert.deepEqual((await ok(a, 'sandbox_list_files', { sandbox_id: boxA })).entries.map((e) => e.name), ['f']);

// Each client sees, names and touches only its own sandboxes.
assert.deepEqual((await ok(a, 'sandbox_list')).sandboxes.map((s) => s.sandbox_id), [boxA]);
assert.deepEqual((await ok(b, 'sandbox_list')).sandboxes.map((s) => s.sandbox_id), [boxB]);
await fails(b, 'sandbox_exec', { sandbox_id: boxA, argv: ['true'] }, 'SBX_E4030');
await fails(b, 'sandbox_read_file', { sandbox_id: boxA, path: 'f' }, 'SBX_E4030');
await fails(b, 'sandbox_write_file', { sandbox_id: boxA, path: 'f', content: 'B' }, 'SBX_E4030');
await fails(b, 'sandbox_list_files', { sandbox_id: boxA }, 'SBX_E4030');
await fails(b, 'sandbox_destroy', { sandbox_id: boxA }, 'SBX_E4030');
for (const path of ['../x', '/etc/passwd']) {
  await fails(a, 'sandbox_write_file', { sandbox_id: boxA, path, content: 'x' }, 'SBX_E3015');
  await fails(a, 'sandbox_read_file', { sandbox_id: boxA, path }, 'SBX_E3015');
  await fails(a, 'sandbox_list_files', { sandbox_id: boxA, path }, 'SBX_E3015');
}
await assert.rejects(a.callTool({ name: 'nope', arguments: {} }), (e) => e.code === -32602);

// 50 concurrent calls from the two clients, each into its own sandbox.
const calls = [];
for (let i = 0; i < 50; i++) {
  const [c, box, who] = i % 2 ? [a, boxA, 'A'] : [b, boxB, 'B'];
  calls.push(ok(c, 'sandbox_exec', { sandbox_id: box, argv: ['sh', '-c', `echo ${who}${i}`] })
    .then((r) => assert.equal(r.stdout, `${who}${i}\n`)));
}
await Promise.all(calls);
assert.deepEqual((await ok(a, 'sandbox_list')).sandboxes.map((s) => s.sandbox_id), [boxA]);
assert.deepEqual((await ok(b, 'sandbox_list')).sandboxes.map((s) => s.sandbox_id), [boxB]);

// Ending a session (DELETE) destroys its sandboxes; the other's live on.
await b.transport.terminateSession();
await b.close();
assert.deepEqual(await waitGone(initsB), [], 'DELETE left the session\'s sandbox');
assert.deepEqual(await waitGone(initsA, 300), initsA, 'the other session lost its sandbox');
assert.equal((await ok(a, 'sandbox_exec', { sandbox_id: boxA, argv: ['cat', 'f'] })).stdout, 'A');

// SIGTERM with a call in flight: it is cancelled, the server exits at once.
const long = a.callTool({ name: 'sandbox_exec', arguments: { sandbox_id: boxA, argv: ['sleep', '60'] } }).catch(() => 'gone');
await new Promise((r) => setTimeout(r, 500));
const inits = localInits(server.p.pid);
const stopping = Date.now();
assert.equal(await server.stop(), 128 + 15);
assert.ok(Date.now() - stopping < 10000, `stopping took ${Date.now() - stopping} ms`);
assert.deepEqual(await waitGone(inits), [], 'SIGTERM left sandboxes behind');
await long;
await a.close().catch(() => {});
console.log('ok: the SDK client over HTTP, sessions isolated');
