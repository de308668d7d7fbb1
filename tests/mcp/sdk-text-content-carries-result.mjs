// SPDX-License-Identifier: Apache-2.0
// A client that reads only a result's content (older clients do) still gets
// the output: the text content of every tool's result is its
// structuredContent serialized, as the specification's SHOULD asks; the
// output in it is what the caps let through, no more.
import assert from 'node:assert/strict';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { stdioClient } from './client.mjs';

const { client } = await stdioClient(['--dsn', 'local://', '--timeout', '20s', '--output-cap', '1M']);

// The one text block of a successful result, parsed: it must be structuredContent.
async function text(name, args = {}, options = undefined) {
  const r = options ? await client.callTool({ name, arguments: args }, CallToolResultSchema, options)
                    : await client.callTool({ name, arguments: args });
  assert.equal(r.isError, false, `${name} failed: ${JSON.stringify(r.content)}`);
  assert.equal(r.content.length, 1, JSON.stringify(r.content));
  assert.equal(r.content[0].type, 'text');
  assert.deepEqual(JSON.parse(r.content[0].text), r.structuredContent, `${name}: the text is not the structured result`);
  return r.content[0].text;
}

// run: the text holds the command's stdout and stderr and its exit code.
const ran = await text('run', { argv: ['sh', '-c', 'echo hello-from-run; echo oops >&2; exit 3'] });
assert.ok(ran.includes('hello-from-run\\n'), ran);
assert.ok(ran.includes('"stderr":"oops\\n"'), ran);
assert.ok(ran.includes('"exit_code":3'), ran);

// Streamed (the client asked for progress): the same.
const streamed = await text('run', { argv: ['echo', 'hello-streamed'] }, { onprogress: () => {} });
assert.ok(streamed.includes('hello-streamed\\n'), streamed);

// Within the cap: what was cut is not in the text either.
const capped = await text('run', { argv: ['sh', '-c', 'printf %0100d 0'], output_cap_bytes: 10 });
assert.ok(capped.includes('"stdout":"0000000000"'), capped);
assert.ok(capped.includes('"stdout_truncated":true'), capped);

// Every other tool too.
const box = JSON.parse(await text('sandbox_create'));
const id = box.sandbox_id;
assert.ok((await text('sandbox_exec', { sandbox_id: id, argv: ['echo', 'hello-from-exec'] })).includes('hello-from-exec'));
await text('sandbox_write_file', { sandbox_id: id, path: 'f.txt', content: 'file-text' });
assert.ok((await text('sandbox_read_file', { sandbox_id: id, path: 'f.txt' })).includes('"content":"file-text"'));
assert.ok((await text('sandbox_list_files', { sandbox_id: id })).includes('"name":"f.txt"'));
assert.ok((await text('sandbox_list')).includes(id));
await text('sandbox_destroy', { sandbox_id: id });

await client.close();
console.log('PASS: every tool result carries its structuredContent, serialized, as its text (run: its stdout)');
