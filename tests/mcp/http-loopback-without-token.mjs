// SPDX-License-Identifier: Apache-2.0
// Loopback without a token: what the spec's security warning asks of a
// local server, enforced. Host must name loopback (DNS rebinding), and an
// Origin, when a browser sends one, must be the server's own: a page of
// evil.example rebound to 127.0.0.1, or of another local port, is 403 with
// a JSON-RPC error. A program (no Origin) is served. With a token, any
// loopback origin may try: the token guards.
import assert from 'node:assert/strict';
import http from 'node:http';
import { httpServer } from './http-server.mjs';

function initialize(url, headers) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {
    protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'origin', version: '1' } } });
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: url.port, path: '/mcp', method: 'POST', headers: {
      'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let data = '';
      res.on('data', (d) => { data += d; });
      res.on('end', () => resolve({ status: res.statusCode, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// An empty SANDBOXIO_MCP_TOKEN is none.
const open = await httpServer([], { SANDBOXIO_MCP_TOKEN: '' });
const url = new URL(open.url);
const port = Number(url.port);

for (const headers of [{}, { Origin: `http://127.0.0.1:${port}` }, { Origin: `http://localhost:${port}` },
                       { Origin: `http://LOCALHOST:${port}` }, { Host: `localhost:${port}` }]) {
  const r = await initialize(url, headers);
  assert.equal(r.status, 200, `${JSON.stringify(headers)}: ${r.body}`);
}
for (const headers of [{ Origin: 'http://evil.example' }, { Origin: `http://evil.example:${port}` },
                       { Origin: `http://localhost:${port + 1}` }, { Origin: 'http://localhost' },
                       { Origin: `https://127.0.0.1:${port}0` }, { Origin: `http://127.0.0.1:${port}/x` },
                       { Origin: 'null' }, { Host: `evil.example:${port}` },
                       { Host: `evil.example:${port}`, Origin: `http://evil.example:${port}` }]) {
  const r = await initialize(url, headers);
  assert.equal(r.status, 403, JSON.stringify(headers));
  const e = JSON.parse(r.body);
  assert.equal(e.jsonrpc, '2.0');
  assert.equal(e.id, null);
  assert.equal(e.error.code, -32600, r.body);
}
assert.equal(await open.stop(), 128 + 15);

// With a token: a loopback page of another port may present it.
const token = 'origin-token-0123456789';
const guarded = await httpServer([], { SANDBOXIO_MCP_TOKEN: token });
const gurl = new URL(guarded.url);
const auth = { Authorization: `Bearer ${token}` };
assert.equal((await initialize(gurl, { ...auth, Origin: 'http://localhost:3000' })).status, 200);
assert.equal((await initialize(gurl, { Origin: 'http://localhost:3000' })).status, 401);
assert.equal((await initialize(gurl, { ...auth, Origin: 'http://evil.example' })).status, 403);
assert.equal(await guarded.stop(), 128 + 15);
console.log('ok: loopback without a token serves programs and its own origin only');
