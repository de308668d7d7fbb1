// SPDX-License-Identifier: Apache-2.0
// With a progressToken, a running command's output and elapsed time come
// as notifications/progress as they happen (over HTTP in the event stream
// of the POST, before its response), and the result is the same as without.
import assert from 'node:assert/strict';
import { stdioClient, httpClient, ok } from './client.mjs';
import { httpServer } from './http-server.mjs';
import { localInits, waitGone } from './procs.mjs';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

const script = ['sh', '-c', 'echo one; sleep 0.3; echo two >&2; sleep 0.3; echo three'];

async function withProgress(client, name, args) {
  const seen = [];
  const started = Date.now();
  const r = await client.callTool({ name, arguments: args }, CallToolResultSchema,
                                  { onprogress: (p) => seen.push({ ...p, at: Date.now() - started }) });
  assert.equal(r.isError, false, JSON.stringify(r));
  return { r: r.structuredContent, seen, done: Date.now() - started };
}

function check(label, { r, seen, done }, live) {
  assert.equal(r.stdout, 'one\nthree\n', label);
  assert.equal(r.stderr, 'two\n', label);
  assert.equal(r.exit_code, 0, label);
  const messages = seen.map((p) => p.message);
  assert.equal(messages[0], 'started', `${label}: ${JSON.stringify(seen)}`);
  assert.ok(messages.includes('stdout: one\n'), `${label}: ${JSON.stringify(messages)}`);
  assert.ok(messages.includes('stderr: two\n'), `${label}: ${JSON.stringify(messages)}`);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i].progress > seen[i - 1].progress, label);
  // The elapsed time: "two" comes about 300 ms after the start.
  const two = seen.find((p) => p.message === 'stderr: two\n');
  assert.ok(two.progress >= 250, `${label}: elapsed ${two.progress}`);
  // Live: it arrived while the command still had its last 300 ms to sleep.
  if (live) assert.ok(two.at < done - 150, `${label}: not live (${two.at} of ${done} ms)`);
}

const { client } = await stdioClient(['--dsn', 'local://']);
check('run over stdio', await withProgress(client, 'run', { argv: script }), true);
const id = (await ok(client, 'sandbox_create')).sandbox_id;
check('sandbox_exec over stdio', await withProgress(client, 'sandbox_exec', { sandbox_id: id, argv: script }), true);
// The cap still applies to what is captured.
const capped = await withProgress(client, 'run', { argv: ['sh', '-c', 'echo 123456789'], output_cap_bytes: 4 });
assert.deepEqual([capped.r.stdout, capped.r.stdout_truncated], ['1234', true]);
await client.close();

const server = await httpServer([]);
const h = (await httpClient(server.url)).client;
check('run over HTTP', await withProgress(h, 'run', { argv: script }), true);
const hid = (await ok(h, 'sandbox_create')).sandbox_id;
check('sandbox_exec over HTTP', await withProgress(h, 'sandbox_exec', { sandbox_id: hid, argv: script }), true);
// Without a progressToken the answer is the plain JSON response.
assert.equal((await ok(h, 'run', { argv: ['echo', 'plain'] })).stdout, 'plain\n');
// A streamed run cancelled by the client (notifications/cancelled in a POST
// of its own): the command is killed and its sandbox destroyed at once.
const before = localInits(server.p.pid);
const abort = new AbortController();
const seen = [];
const long = h.callTool({ name: 'run', arguments: { argv: ['sh', '-c', 'echo go; sleep 60'] } }, CallToolResultSchema,
                        { signal: abort.signal, onprogress: (p) => seen.push(p.message) });
for (let i = 0; !seen.includes('stdout: go\n'); i++) {
  assert.ok(i < 200, `the run never started: ${JSON.stringify(seen)}`);
  await new Promise((r) => setTimeout(r, 50));
}
const running = localInits(server.p.pid).filter((p) => !before.includes(p));
assert.ok(running.length >= 1, 'no sandbox for the run');
const cancelledAt = Date.now();
abort.abort('test cancels');
await assert.rejects(long);
assert.deepEqual(await waitGone(running, 5000), [], 'the cancelled run\'s sandbox lives on');
assert.ok(Date.now() - cancelledAt < 5000);
assert.equal((await ok(h, 'run', { argv: ['echo', 'next'] })).stdout, 'next\n');
await h.close();
await server.stop();
console.log('ok: progress notifications');
