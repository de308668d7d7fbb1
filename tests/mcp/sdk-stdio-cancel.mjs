// SPDX-License-Identifier: Apache-2.0
// A cancelled tools/call (notifications/cancelled, sent by the SDK when the
// caller aborts) kills the command: the sandbox has no trace of it after.
import assert from 'node:assert/strict';
import { stdioClient, ok } from './client.mjs';

const { client } = await stdioClient(['--dsn', 'local://']);
const id = (await ok(client, 'sandbox_create')).sandbox_id;

const ps = ['sh', '-c', 'for p in /proc/[0-9]*; do cat $p/comm; done 2>/dev/null; true'];
const abort = new AbortController();
const started = Date.now();
const call = client.callTool({ name: 'sandbox_exec', arguments: { sandbox_id: id, argv: ['sleep', '30'] } },
                             undefined, { signal: abort.signal });
// The sleep is running in the sandbox before we cancel.
for (let i = 0; ; i++) {
  const seen = (await ok(client, 'sandbox_exec', { sandbox_id: id, argv: ps })).stdout.split('\n');
  if (seen.includes('sleep')) break;
  assert.ok(i < 100, 'the sleep never started');
  await new Promise((r) => setTimeout(r, 50));
}
abort.abort('test cancels');
await assert.rejects(call);

// Within a few seconds the sleep is gone, long before its 30 s.
let seen;
for (let i = 0; i < 100; i++) {
  seen = (await ok(client, 'sandbox_exec', { sandbox_id: id, argv: ps })).stdout.split('\n');
  if (!seen.includes('sleep')) break;
  await new Promise((r) => setTimeout(r, 50));
}
assert.ok(!seen.includes('sleep'), `the cancelled command still runs: ${seen}`);
assert.ok(Date.now() - started < 15000);

// A cancelled run of its own sandbox: the server answers the next call at once.
const abort2 = new AbortController();
const run = client.callTool({ name: 'run', arguments: { argv: ['sleep', '30'] } }, undefined, { signal: abort2.signal });
setTimeout(() => abort2.abort('test cancels'), 300);
await assert.rejects(run);
assert.equal((await ok(client, 'run', { argv: ['echo', 'next'] })).stdout, 'next\n');
assert.ok(Date.now() - started < 20000);

await client.close();
console.log('ok: a cancelled call stops its command');
