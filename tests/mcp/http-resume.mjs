// SPDX-License-Identifier: Apache-2.0
// Resumable event streams: every event of a streamed answer has an id, and
// a client that lost the stream gets the rest of it, nothing lost and
// nothing twice, with GET and Last-Event-ID. First the official SDK
// client, whose connection a proxy cuts mid-call (it reconnects by
// itself); then raw HTTP: ids, a foreign or unknown id, a replay buffer
// too small for what was missed (SBX_E1060 in place of the response, the
// call cancelled), a lost stream nobody resumes (cancelled after
// --resume-window), and --replay-buffer 0 (no ids, no resumption).
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { httpClient } from './client.mjs';
import { httpServer } from './http-server.mjs';
import { localInits, waitGone, alive } from './procs.mjs';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

const sleep = (ms) => new Promise((res) => setTimeout(res, ms));
const count = ['sh', '-c', 'for i in 1 2 3 4 5 6 7 8; do echo $i; sleep 0.3; done'];
const counted = '1\n2\n3\n4\n5\n6\n7\n8\n';

// A TCP proxy to the server that cuts, once, the connection on which it
// first sees the event `cutAt`, and notes the Last-Event-ID of each GET.
function proxy(port, cutAt) {
  const gets = [];
  let cut = false;
  const server = net.createServer((down) => {
    const up = net.connect(port, '127.0.0.1');
    down.on('data', (d) => {
      const head = d.toString('latin1');
      if (head.startsWith('GET ')) gets.push((head.match(/^last-event-id: *(.*?)\r$/im) || [])[1] ?? null);
      up.write(d);
    });
    up.on('data', (d) => {
      down.write(d);
      if (!cut && d.toString('utf8').includes(cutAt)) {
        cut = true;
        setImmediate(() => { down.destroy(); up.destroy(); });
      }
    });
    for (const s of [up, down]) s.on('error', () => { up.destroy(); down.destroy(); });
    up.on('close', () => down.destroy());
    down.on('close', () => up.destroy());
  });
  return new Promise((res) => server.listen(0, '127.0.0.1', () =>
    res({ url: `http://127.0.0.1:${server.address().port}/mcp`, gets, wasCut: () => cut,
          close: () => server.close() })));
}

// The SDK client, through a proxy that cuts its stream after "stdout: 2".
const server = await httpServer(['--timeout', '30s']);
const port = new URL(server.url).port;
const px = await proxy(port, 'stdout: 2\\n');
const { client } = await httpClient(px.url);
const errors = [];
client.onerror = (e) => errors.push(String(e));
const seen = [];
const r = await client.callTool({ name: 'run', arguments: { argv: count } }, CallToolResultSchema,
                                { onprogress: (p) => seen.push(p) });
assert.equal(px.wasCut(), true, 'the proxy never cut the stream');
assert.ok(errors.some((e) => /SSE stream disconnected/.test(e)), JSON.stringify(errors));
assert.equal(r.isError, false, JSON.stringify(r));
assert.equal(r.structuredContent.stdout, counted);
// Nothing lost, nothing twice: the progress chunks add up to the output.
const messages = seen.map((p) => p.message);
assert.equal(messages.filter((m) => m === 'started').length, 1, JSON.stringify(messages));
assert.equal(messages.filter((m) => m.startsWith('stdout: ')).map((m) => m.slice(8)).join(''), counted,
             JSON.stringify(messages));
for (let i = 1; i < seen.length; i++) assert.ok(seen[i].progress > seen[i - 1].progress, JSON.stringify(seen));
// It came back once, with the id of the last event it had (its other GET,
// without one, is the stream of the server's own it asks for at the start).
const resumes = px.gets.filter((g) => g !== null);
assert.equal(resumes.length, 1, JSON.stringify(px.gets));
assert.match(resumes[0], /^\d+-\d+$/);
await client.close();
px.close();

// Raw HTTP.
function request(port, { method = 'POST', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: '/mcp',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } });
    req.on('response', (res) => resolve({ req, res }));
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
// The events of an SSE response as they come: { id, data }; .stop() drops the connection.
function events(res, req) {
  const list = [];
  let buf = '', wake = null;
  const ended = new Promise((resolve) => { res.on('end', resolve); res.on('close', resolve); });
  res.setEncoding('utf8');
  res.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const id = (block.match(/^id: (.*)$/m) || [])[1] ?? null;
      list.push({ id, data: JSON.parse(block.match(/^data: (.*)$/m)[1]) });
      wake?.();
    }
  });
  return {
    list, ended,
    async until(n) { while (list.length < n) await new Promise((res) => { wake = res; }); },
    stop() { req.destroy(); },
  };
}
async function session(port) {
  const { res } = await request(port, { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'resume', version: '1' } } }) });
  res.resume();
  const sid = res.headers['mcp-session-id'];
  const { res: n } = await request(port, { headers: { 'Mcp-Session-Id': sid },
    body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
  n.resume();
  return sid;
}
const call = (id, argv) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call',
  params: { name: 'run', arguments: { argv }, _meta: { progressToken: `p${id}` } } });
async function body(res) {
  let text = '';
  res.setEncoding('utf8');
  for await (const d of res) text += d;
  return text;
}

// Ids, and a resume by hand: the events after the one named, then the end.
const sid = await session(port);
const other = await session(port);
let { req, res } = await request(port, { headers: { 'Mcp-Session-Id': sid }, body: call(5, count) });
assert.equal(res.headers['content-type'], 'text/event-stream');
let ev = events(res, req);
await ev.until(2);
ev.stop();
const first = ev.list.slice(0, 2);
assert.equal(first[0].data.params.message, 'started');
const [stream, index] = first[1].id.split('-').map(Number);
assert.deepEqual(first.map((e) => e.id), [`${stream}-0`, `${stream}-1`]);
// Another session cannot see it, an unknown id or none is not a stream.
for (const [headers, status] of [[{ 'Mcp-Session-Id': other, 'Last-Event-ID': first[1].id }, 404],
                                 [{ 'Mcp-Session-Id': sid, 'Last-Event-ID': `${stream + 100}-0` }, 404],
                                 [{ 'Mcp-Session-Id': sid, 'Last-Event-ID': `${stream}-999` }, 404],
                                 [{ 'Mcp-Session-Id': sid, 'Last-Event-ID': 'x' }, 404],
                                 [{ 'Last-Event-ID': first[1].id }, 400],
                                 [{ 'Mcp-Session-Id': sid }, 405]]) {
  const { res: g } = await request(port, { method: 'GET', headers: { ...headers, Accept: 'text/event-stream' } });
  assert.equal(g.statusCode, status, JSON.stringify(headers));
  const text = await body(g);
  if (status === 404) assert.match(JSON.parse(text).error.message, /^SBX_E1060: /);
}
await sleep(800);   // events come while nobody reads
({ req, res } = await request(port, { method: 'GET',
  headers: { 'Mcp-Session-Id': sid, 'Last-Event-ID': first[1].id, Accept: 'text/event-stream' } }));
assert.equal(res.statusCode, 200);
assert.equal(res.headers['content-type'], 'text/event-stream');
ev = events(res, req);
await ev.ended;
const rest = ev.list;
assert.deepEqual(rest.map((e) => e.id), rest.map((_, i) => `${stream}-${index + 1 + i}`));
const response = rest.at(-1).data;
assert.equal(response.id, 5);
assert.equal(response.result.structuredContent.stdout, counted);
const chunks = [...first, ...rest].filter((e) => e.data.method === 'notifications/progress')
  .map((e) => e.data.params.message).filter((m) => m.startsWith('stdout: ')).map((m) => m.slice(8));
assert.equal(chunks.join(''), counted);
// Delivered to its end, the stream is forgotten.
({ res } = await request(port, { method: 'GET',
  headers: { 'Mcp-Session-Id': sid, 'Last-Event-ID': first[1].id, Accept: 'text/event-stream' } }));
assert.equal(res.statusCode, 404);
res.resume();
assert.equal(await server.stop(), 128 + 15);

// A replay buffer too small for what was missed; a stream nobody resumes.
const small = await httpServer(['--replay-buffer', '2k']);
const sport = new URL(small.url).port;
const ssid = await session(sport);
({ req, res } = await request(sport, { headers: { 'Mcp-Session-Id': ssid },
  body: call(7, ['sh', '-c', 'echo go; for i in $(seq 40); do sleep 0.06; echo line-$i-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done; sleep 60']) }));
ev = events(res, req);
await ev.until(2);
ev.stop();
await sleep(4000);  // some 40 events of 150 bytes, while nobody reads
let inits = localInits(small.p.pid);
assert.ok(inits.length >= 1, 'the run never started');
({ req, res } = await request(sport, { method: 'GET',
  headers: { 'Mcp-Session-Id': ssid, 'Last-Event-ID': ev.list[1].id, Accept: 'text/event-stream' } }));
assert.equal(res.statusCode, 200);
ev = events(res, req);
await ev.ended;
assert.equal(ev.list.length, 1, JSON.stringify(ev.list));
assert.equal(ev.list[0].data.id, 7);
assert.equal(ev.list[0].data.error.code, -32000);
assert.match(ev.list[0].data.error.message, /^SBX_E1060: /);
assert.deepEqual(await waitGone(inits, 8000), [], 'the call of a lost stream runs on');

assert.equal(await small.stop(), 128 + 15);

const brief = await httpServer(['--resume-window', '1s']);
const bport = new URL(brief.url).port;
const bsid = await session(bport);
({ req, res } = await request(bport, { headers: { 'Mcp-Session-Id': bsid }, body: call(8, ['sh', '-c', 'echo go; sleep 60']) }));
ev = events(res, req);
await ev.until(2);
await sleep(300);
inits = localInits(brief.p.pid);
assert.ok(inits.length >= 1 && inits.every(alive), 'the run never started');
ev.stop();
const lostAt = Date.now();
assert.deepEqual(await waitGone(inits, 8000), [], 'a stream nobody resumed kept its call running');
assert.ok(Date.now() - lostAt >= 900, 'cancelled before --resume-window');
// A client back after that learns that its call was cancelled.
({ req, res } = await request(bport, { method: 'GET',
  headers: { 'Mcp-Session-Id': bsid, 'Last-Event-ID': ev.list[1].id, Accept: 'text/event-stream' } }));
assert.equal(res.statusCode, 200);
ev = events(res, req);
await ev.ended;
assert.equal(ev.list.length, 1, JSON.stringify(ev.list));
assert.deepEqual([ev.list[0].data.id, ev.list[0].data.error.code], [8, -32000]);
assert.match(ev.list[0].data.error.message, /^SBX_E1060: the stream was not resumed within/);
assert.equal(await brief.stop(), 128 + 15);

// --replay-buffer 0: no ids, and GET is 405 whatever it carries.
const none = await httpServer(['--replay-buffer', '0']);
const nport = new URL(none.url).port;
const nsid = await session(nport);
({ req, res } = await request(nport, { headers: { 'Mcp-Session-Id': nsid }, body: call(9, ['echo', 'x']) }));
ev = events(res, req);
await ev.ended;
assert.ok(ev.list.length >= 2 && ev.list.every((e) => e.id === null), JSON.stringify(ev.list));
({ res } = await request(nport, { method: 'GET', headers: { 'Mcp-Session-Id': nsid, 'Last-Event-ID': '1-0' } }));
assert.equal(res.statusCode, 405);
res.resume();
assert.equal(await none.stop(), 128 + 15);
console.log('ok: event streams resume with Last-Event-ID, nothing lost or twice; the buffer is bounded');
