// SPDX-License-Identifier: Apache-2.0
// Every sandbox a stdio client opened is destroyed when the server gets
// EOF on stdin, SIGTERM or SIGINT, also with a command still running, whose
// call is cancelled and gets no response: checked with the local backend's
// own processes.
import assert from 'node:assert/strict';
import { rawServer, initialized } from './raw-stdio.mjs';
import { localInits, waitGone } from './procs.mjs';

const SBX = process.env.SBX;

const server = () => rawServer(SBX, ['mcp', '--dsn', 'local://']);

async function scenario(name, end, expectCode) {
  const s = server();
  await initialized(s);
  const ids = [];
  for (let i = 0; i < 3; i++) {
    const r = await s.request('tools/call', { name: 'sandbox_create', arguments: {} });
    assert.equal(r.result.isError, false, JSON.stringify(r));
    ids.push(r.result.structuredContent.sandbox_id);
  }
  // One with a command running that would outlive the test: cancelled at
  // the end, it gets no response (docs/mcp.md says so).
  let answered = null;
  s.request('tools/call', { name: 'sandbox_exec', arguments: { sandbox_id: ids[0], argv: ['sleep', '60'] } })
    .then((r) => { answered = r; });
  await new Promise((r) => setTimeout(r, 300));
  const inits = localInits(s.p.pid);
  // One init per sandbox at least (an exec may add a helper of the same name).
  assert.ok(inits.length >= 3, `${name}: expected 3 local sandboxes, saw ${inits}`);
  end(s);
  const { code } = await s.exited;
  assert.equal(code, expectCode, `${name}: exit status`);
  assert.equal(answered, null, `${name}: the call in flight got a response: ${JSON.stringify(answered)}`);
  assert.deepEqual(await waitGone(inits), [], `${name}: sandboxes left behind`);
  console.log(`ok: ${name} destroys every sandbox`);
}

await scenario('EOF on stdin', (s) => s.p.stdin.end(), 0);
await scenario('SIGTERM', (s) => s.p.kill('SIGTERM'), 128 + 15);
await scenario('SIGINT', (s) => s.p.kill('SIGINT'), 128 + 2);
