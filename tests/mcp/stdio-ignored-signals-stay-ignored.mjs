// SPDX-License-Identifier: Apache-2.0
// A termination signal the server was started with ignored (nohup, a
// shell's trap '' HUP) stays ignored: the server goes on serving and its
// sandbox lives. A signal it was not told to ignore still ends it, every
// sandbox destroyed. The stdio server and `run` share the one setup.
import assert from 'node:assert/strict';
import { rawServer, initialized } from './raw-stdio.mjs';
import { localInits, alive, waitGone } from './procs.mjs';

// sh ignores the signals, then becomes the server (same pid): the ignored
// dispositions survive the exec, as with nohup.
const s = rawServer('sh', ['-c', 'trap "" HUP INT; exec "$SBX" mcp --dsn local://']);
const { p, request, exited } = s;
await initialized(s);
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
