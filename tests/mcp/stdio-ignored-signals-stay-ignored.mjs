// A termination signal the server was started with ignored (nohup, a
// shell's trap '' HUP) stays ignored: the server goes on serving and its
// sandbox lives. A signal it was not told to ignore still ends it, every
// sandbox destroyed. The stdio server and `run` share the one setup.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { localInits, alive, waitGone } from './procs.mjs';

// sh ignores the signals, then becomes the server (same pid): the ignored
// dispositions survive the exec, as with nohup.
const p = spawn('sh', ['-c', 'trap "" HUP INT; exec "$SBX" mcp --dsn local://'],
                { stdio: ['pipe', 'pipe', 'inherit'] });
let buf = '';
const waiting = new Map();
p.stdout.on('data', (d) => {
  buf += d;
  let nl;
  while ((nl = buf.indexOf('\n')) >= 0) {
    const msg = JSON.parse(buf.slice(0, nl));
    buf = buf.slice(nl + 1);
    waiting.get(msg.id)?.(msg);
  }
});
let next = 1;
const request = (method, params) => new Promise((resolve) => {
  const id = next++;
  waiting.set(id, resolve);
  p.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
});
const exited = new Promise((resolve) => p.on('exit', (code, signal) => resolve({ code, signal })));

await request('initialize', { protocolVersion: '2025-11-25', capabilities: {},
                              clientInfo: { name: 't', version: '1' } });
p.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
const made = await request('tools/call', { name: 'sandbox_create', arguments: {} });
const id = made.result.structuredContent.sandbox_id;
const inits = localInits(p.pid);
assert.equal(inits.length, 1);

p.kill('SIGHUP');
p.kill('SIGINT');
await new Promise((r) => setTimeout(r, 500));
assert.equal(p.exitCode, null, 'an ignored SIGHUP or SIGINT ended the server');
const after = await request('tools/call', { name: 'sandbox_exec', arguments: { sandbox_id: id, argv: ['echo', 'still'] } });
assert.equal(after.result.structuredContent?.stdout, 'still\n', JSON.stringify(after));
assert.ok(inits.every(alive), 'the sandbox died of an ignored signal');

p.kill('SIGTERM');
assert.deepEqual(await exited, { code: 128 + 15, signal: null });
assert.deepEqual(await waitGone(inits), [], 'SIGTERM left the sandbox behind');
console.log('ok: ignored signals stay ignored; SIGTERM still destroys every sandbox');
