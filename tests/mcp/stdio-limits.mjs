// SPDX-License-Identifier: Apache-2.0
// The per-client limits over stdio, driven by hand (the SDK cannot send a
// message too large or wait out a TTL for us): a line past --max-request
// is answered with a JSON-RPC error naming SBX_E1031 and the session goes
// on; a sandbox idle past --idle-ttl is destroyed (its init is gone, its
// id unknown); a request before initialize is refused.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { localInits, waitGone } from './procs.mjs';

const p = spawn(process.env.SBX, ['mcp', '--dsn', 'local://', '--max-request', '4k', '--idle-ttl', '1s'],
                { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = [];
let buf = '', wake = null;
p.stdout.on('data', (d) => {
  buf += d;
  let nl;
  while ((nl = buf.indexOf('\n')) >= 0) {
    lines.push(JSON.parse(buf.slice(0, nl)));
    buf = buf.slice(nl + 1);
  }
  wake?.();
});
const send = (msg) => p.stdin.write((typeof msg === 'string' ? msg : JSON.stringify(msg)) + '\n');
async function next() {
  while (!lines.length) await new Promise((r) => { wake = r; });
  return lines.shift();
}
const call = async (id, name, args) => {
  send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
  return next();
};

send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
assert.deepEqual((await next()).error.code, -32600, 'tools/list before initialize');
send({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2024-01-01', capabilities: {},
                                                            clientInfo: { name: 't', version: '1' } } });
assert.equal((await next()).result.protocolVersion, '2025-11-25', 'an unknown revision gets the newest');
send({ jsonrpc: '2.0', method: 'notifications/initialized' });

// One line past 4 KiB: refused, and the next message is served.
send({ jsonrpc: '2.0', id: 3, method: 'tools/call',
       params: { name: 'run', arguments: { argv: ['cat'], stdin: 'x'.repeat(8192) } } });
const big = await next();
assert.equal(big.id, null);
assert.equal(big.error.code, -32600);
assert.match(big.error.message, /SBX_E1031/);
const small = await call(4, 'run', { argv: ['echo', 'ok'] });
assert.equal(small.result.structuredContent.stdout, 'ok\n');

// Idle past the TTL: destroyed.
const made = await call(5, 'sandbox_create', {});
const id = made.result.structuredContent.sandbox_id;
const inits = localInits(p.pid);
assert.equal(inits.length, 1);
assert.deepEqual(await waitGone(inits, 6000), [], 'the idle sandbox outlived its TTL');
const listed = await call(6, 'sandbox_list', {});
assert.deepEqual(listed.result.structuredContent.sandboxes, []);
const gone = await call(7, 'sandbox_exec', { sandbox_id: id, argv: ['true'] });
assert.equal(gone.result.isError, true);
assert.equal(gone.result._meta['dev.sandboxio/error'].id, 'SBX_E4030');

p.stdin.end();
assert.equal(await new Promise((r) => p.on('exit', r)), 0);
console.log('ok: request size, idle TTL and initialize-first over stdio');
