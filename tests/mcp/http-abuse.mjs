// SPDX-License-Identifier: Apache-2.0
// Abuse of the HTTP transport: no or a wrong token, a foreign Origin or
// Host (DNS rebinding), oversized bodies, malformed JSON-RPC, bad
// sessions, a client that disconnects mid-run, and the refusal to serve a
// non-loopback address without a token.
import assert from 'node:assert/strict';
import http from 'node:http';
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpServer } from './http-server.mjs';
import { localInits, waitGone } from './procs.mjs';

const token = 'abuse-token-0123456789';
const server = await httpServer(['--max-request', '64k'], { SANDBOXIO_MCP_TOKEN: token });
const url = new URL(server.url);

// One raw request; resolves with { status, headers, body } (or { error }).
function request({ method = 'POST', path = '/mcp', headers = {}, body, destroyAfter } = {}) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port: url.port, method, path,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } },
    (res) => {
      let data = '';
      res.on('data', (d) => { data += d; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: data }));
    });
    req.on('error', (error) => resolve({ error }));
    if (body !== undefined) req.write(body);
    if (destroyAfter) setTimeout(() => { req.destroy(); resolve({ destroyed: true }); }, destroyAfter);
    req.end();
  });
}
const auth = { Authorization: `Bearer ${token}` };
const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'abuse', version: '1' } } });

// The token.
for (const headers of [{}, { Authorization: 'Bearer wrong-token-0123456789x' }, { Authorization: 'Bearer abuse' },
                       { Authorization: `Bearer ${token}x` }, { Authorization: `Basic ${token}` },
                       { Authorization: token }]) {
  const r = await request({ headers, body: init });
  assert.equal(r.status, 401, JSON.stringify(headers));
  assert.match(r.headers['www-authenticate'], /^Bearer/);
}
// Origin and Host: DNS rebinding.
for (const headers of [{ Origin: 'http://evil.example' }, { Origin: 'null' }, { Origin: 'http://127.0.0.1.evil.example' },
                       { Host: 'evil.example' }, { Host: `evil.example:${url.port}` }]) {
  const r = await request({ headers: { ...auth, ...headers }, body: init });
  assert.equal(r.status, 403, JSON.stringify(headers));
}
const good = await request({ headers: { ...auth, Origin: `http://localhost:${url.port}` }, body: init });
assert.equal(good.status, 200, good.body);
const sid = good.headers['mcp-session-id'];
assert.match(sid, /^[0-9a-f]{32}$/);
const inSession = { ...auth, 'Mcp-Session-Id': sid };
assert.equal((await request({ headers: inSession, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })).status, 202);

// Size: announced, and sent chunked without a length.
const big = 'x'.repeat(100 * 1024);
let r = await request({ headers: inSession, body: big });
assert.ok(r.status === 413 || r.error, `an oversized body got ${r.status}`);
r = await request({ headers: { ...inSession, 'Transfer-Encoding': 'chunked' }, body: big });
assert.ok(r.status === 413 || r.error, `an oversized chunked body got ${r.status}`);

// Malformed JSON-RPC is a JSON-RPC error; sessions are required and checked.
const rpcError = (res) => JSON.parse(res.body).error.code;
assert.equal(rpcError(await request({ headers: inSession, body: '{"jsonrpc":"2.0","id":2,' })), -32700);
assert.equal(rpcError(await request({ headers: inSession, body: '{"jsonrpc":"1.0","id":2,"method":"ping"}' })), -32600);
assert.equal(rpcError(await request({ headers: inSession, body: '[{"jsonrpc":"2.0","id":2,"method":"ping"}]' })), -32600);
assert.equal(rpcError(await request({ headers: inSession,
  body: '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}' })), -32602);
assert.equal(rpcError(await request({ headers: inSession, body: '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{}}' })), -32602);
assert.equal((await request({ headers: auth, body: '{"jsonrpc":"2.0","id":5,"method":"ping"}' })).status, 400);
assert.equal((await request({ headers: { ...auth, 'Mcp-Session-Id': '0'.repeat(32) },
                              body: '{"jsonrpc":"2.0","id":6,"method":"ping"}' })).status, 404);
assert.equal((await request({ headers: { ...inSession, 'Content-Type': 'text/plain' }, body: '{}' })).status, 415);
// GET: no stream of the server's own (it sends nothing unasked): 405, as the spec allows.
const get = await request({ method: 'GET', headers: { ...inSession, Accept: 'text/event-stream' } });
assert.equal(get.status, 405);
assert.equal(get.headers.allow, 'POST, DELETE');
assert.equal((await request({ path: '/other', headers: inSession, body: init })).status, 404);

// A client that disconnects mid-run: the run's sandbox is destroyed.
const pending = request({ headers: inSession, destroyAfter: 1500, body: JSON.stringify({ jsonrpc: '2.0', id: 7,
  method: 'tools/call', params: { name: 'run', arguments: { argv: ['sleep', '60'] } } }) });
await new Promise((res) => setTimeout(res, 700));
const inits = localInits(server.p.pid);
assert.ok(inits.length >= 1, 'the run never started');
assert.deepEqual(await pending, { destroyed: true });
assert.deepEqual(await waitGone(inits, 8000), [], 'the disconnected client\'s sandbox lives on');
// The server still serves.
assert.equal(JSON.parse((await request({ headers: inSession, body: '{"jsonrpc":"2.0","id":8,"method":"ping"}' })).body).result
               !== undefined, true);
assert.equal(await server.stop(), 128 + 15);

// No token, no serving beyond loopback; a token file that is empty is refused.
const env = { ...process.env };
delete env.SANDBOXIO_MCP_TOKEN;
let s = spawnSync(process.env.SBX, ['mcp', '--http', '0.0.0.0:0'], { env, encoding: 'utf8' });
assert.equal(s.status, 120);
assert.match(s.stderr, /SBX_E1032/);
const dir = mkdtempSync(join(tmpdir(), 'sbx-mcp-'));
writeFileSync(join(dir, 'empty'), '\n');
s = spawnSync(process.env.SBX, ['mcp', '--http', '127.0.0.1:0', '--token-file', join(dir, 'empty')], { env, encoding: 'utf8' });
assert.equal(s.status, 120);
assert.match(s.stderr, /SBX_E1032/);
s = spawnSync(process.env.SBX, ['mcp', '--http', 'not-an-address'], { env, encoding: 'utf8' });
assert.equal(s.status, 120);
assert.match(s.stderr, /SBX_E1032/);
console.log('ok: the HTTP transport refuses abuse');
