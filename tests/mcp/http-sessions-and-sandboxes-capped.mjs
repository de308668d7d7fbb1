// SPDX-License-Identifier: Apache-2.0
// More sessions do not buy more sandboxes: the token may have --max-sessions
// HTTP sessions open (the next initialize is HTTP 503 with SBX_E3022), and
// the whole server --max-total-sandboxes sandboxes, those run is using
// included (SBX_E3021 past it), whatever each session's --max-sandboxes.
import assert from 'node:assert/strict';
import http from 'node:http';
import { httpServer } from './http-server.mjs';
import { httpClient, ok, fails } from './client.mjs';

const token = 'caps-token-0123456789abcdef';
const server = await httpServer(['--max-sessions', '3', '--max-sandboxes', '2', '--max-total-sandboxes', '3'],
                                { SANDBOXIO_MCP_TOKEN: token });
const url = new URL(server.url);

function initialize() {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'caps', version: '1' } } });
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: url.port, method: 'POST', path: '/mcp',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
                 Authorization: `Bearer ${token}` } }, (res) => {
      let data = '';
      res.on('data', (d) => { data += d; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const a = await httpClient(server.url, token);
const b = await httpClient(server.url, token);
const c = await httpClient(server.url, token);
// A fourth session is refused, and nothing of it is kept.
for (let i = 0; i < 2; i++) {
  const r = await initialize();
  assert.equal(r.status, 503, r.body);
  assert.equal(r.headers['mcp-session-id'], undefined);
  const err = JSON.parse(r.body).error;
  assert.equal(err.code, -32000);
  assert.match(err.message, /^SBX_E3022: .*--max-sessions/);
}

// Sandboxes: two for a, then its own limit; one for b, then the server's.
const a1 = (await ok(a.client, 'sandbox_create')).sandbox_id;
await ok(a.client, 'sandbox_create');
let e = await fails(a.client, 'sandbox_create', {}, 'SBX_E3021');
assert.match(e.message, /destroy a sandbox of this session first/);
await ok(b.client, 'sandbox_create');
e = await fails(b.client, 'sandbox_create', {}, 'SBX_E3021');
assert.match(e.message, /--max-total-sandboxes/);
e = await fails(c.client, 'run', { argv: ['true'] }, 'SBX_E3021');
assert.match(e.message, /--max-total-sandboxes/);
// A place freed is a place to take.
await ok(a.client, 'sandbox_destroy', { sandbox_id: a1 });
assert.equal((await ok(c.client, 'run', { argv: ['echo', 'ran'] })).stdout, 'ran\n');
await ok(c.client, 'sandbox_create');
await fails(b.client, 'sandbox_create', {}, 'SBX_E3021');

// A session that ends frees its place and its sandboxes' places.
await b.transport.terminateSession();
await b.client.close();
const d = await httpClient(server.url, token);
await ok(d.client, 'sandbox_create');
await fails(a.client, 'sandbox_create', {}, 'SBX_E3021');
assert.equal((await initialize()).status, 503);

for (const x of [a, c, d])
  await x.client.close();
assert.equal(await server.stop(), 143);
console.log('ok: sessions per token and sandboxes per server are capped');
