// SPDX-License-Identifier: Apache-2.0
// An HTTP session its client abandoned (no DELETE) ends after
// --session-ttl without a request: its sandboxes are destroyed (the local
// backend's own processes say so) and its id is then unknown (404, so that
// the SDK starts a new session). A session in use, or with a call running
// longer than the TTL, is not ended under its client.
import assert from 'node:assert/strict';
import { httpServer } from './http-server.mjs';
import { httpClient, ok } from './client.mjs';
import { localInits, alive, waitGone } from './procs.mjs';

const server = await httpServer(['--session-ttl', '1s', '--idle-ttl', '0']);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function post(sid, body) {
  const res = await fetch(server.url, { method: 'POST', body: JSON.stringify(body), headers: {
    'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
    ...(sid ? { 'Mcp-Session-Id': sid } : {}) } });
  return { status: res.status, sid: res.headers.get('mcp-session-id'), body: await res.text() };
}

// The abandoned one: initialize, a sandbox, then silence.
const init = await post(null, { jsonrpc: '2.0', id: 1, method: 'initialize', params: {
  protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'gone', version: '1' } } });
assert.equal(init.status, 200);
const sid = init.sid;
assert.equal((await post(sid, { jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
const made = JSON.parse((await post(sid, { jsonrpc: '2.0', id: 2, method: 'tools/call',
  params: { name: 'sandbox_create', arguments: {} } })).body);
assert.equal(made.result.isError, false);
const abandoned = localInits(server.p.pid);
assert.equal(abandoned.length, 1);

// The one in use: a request every 300 ms, and a call longer than the TTL.
const { client } = await httpClient(server.url);
const box = (await ok(client, 'sandbox_create')).sandbox_id;
const kept = localInits(server.p.pid).filter((p) => !abandoned.includes(p));
assert.equal(kept.length, 1);
for (let i = 0; i < 8; i++) {
  await ok(client, 'sandbox_list');
  await sleep(300);
}
assert.deepEqual(await waitGone(abandoned, 4000), [], 'the abandoned session\'s sandbox lives on');
assert.ok(kept.every(alive), 'the session in use lost its sandbox');
assert.equal((await post(sid, { jsonrpc: '2.0', id: 3, method: 'ping' })).status, 404, 'the ended session still answers');

assert.equal((await ok(client, 'sandbox_exec', { sandbox_id: box, argv: ['sleep', '2.5'] })).exit_code, 0);
assert.equal((await ok(client, 'sandbox_exec', { sandbox_id: box, argv: ['echo', 'kept'] })).stdout, 'kept\n');
assert.ok(kept.every(alive));

// Then abandoned too: it goes the same way.
await sleep(1500);
assert.deepEqual(await waitGone(kept, 4000), [], 'the second abandoned session\'s sandbox lives on');
assert.equal(await server.stop(), 128 + 15);
console.log('ok: an abandoned HTTP session ends after --session-ttl, with its sandboxes');
