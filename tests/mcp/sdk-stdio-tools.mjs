// SPDX-License-Identifier: Apache-2.0
// The official SDK client drives every tool of `sandboxio mcp` over stdio
// on the local backend, asserting exact structured results and errors.
import assert from 'node:assert/strict';
import { stdioClient, ok, fails, exact } from './client.mjs';

const { client } = await stdioClient(['--dsn', 'local://', '--timeout', '20s', '--max-sandboxes', '2',
                                      '--output-cap', '1M', '--agent-env', 'GREETING']);

// Negotiated the SDK's latest revision, and we are who we say.
assert.equal(client.getServerVersion().name, 'sandboxio');
assert.ok(client.getServerCapabilities().tools);

const { tools } = await client.listTools();
assert.deepEqual(tools.map((t) => t.name).sort(), ['run', 'sandbox_create', 'sandbox_destroy',
  'sandbox_exec', 'sandbox_list', 'sandbox_list_files', 'sandbox_read_file', 'sandbox_write_file']);
for (const t of tools) {
  assert.equal(t.inputSchema.type, 'object', t.name);
  assert.equal(t.outputSchema.type, 'object', t.name);
}

const clean = { exit_code: 0, signal: null, timed_out: false, oom_killed: false, net_refused: 0, stderr: '',
  stderr_encoding: 'utf-8', stdout_truncated: false, stderr_truncated: false, stdout_encoding: 'utf-8' };

// run: argv, stdin, env, exit status, code + language.
assert.deepEqual(exact(await ok(client, 'run', { argv: ['echo', 'hello'] })), { ...clean, stdout: 'hello\n' });
assert.deepEqual(exact(await ok(client, 'run', { argv: ['cat'], stdin: 'from stdin' })),
                 { ...clean, stdout: 'from stdin' });
assert.deepEqual(exact(await ok(client, 'run', { argv: ['sh', '-c', 'echo $GREETING; echo oops >&2; exit 3'],
                                                 env: { GREETING: 'hi' } })),
                 { ...clean, exit_code: 3, stdout: 'hi\n', stderr: 'oops\n' });
assert.deepEqual(exact(await ok(client, 'run', { code: 'echo "$((6 * 7))"', language: 'sh' })),
                 { ...clean, stdout: '42\n' });
assert.deepEqual(exact(await ok(client, 'run', { code: 'print(sum(range(10)))', language: 'python' })),
                 { ...clean, stdout: '45\n' });
assert.deepEqual(exact(await ok(client, 'run', { argv: ['sh', '-c', 'kill -9 $$'] })),
                 { ...clean, exit_code: null, signal: 9, stdout: '' });
const slow = await ok(client, 'run', { argv: ['sleep', '10'], timeout_ms: 300 });
assert.equal(slow.timed_out, true);
assert.ok(slow.duration_ms < 5000, `timeout_ms was not applied: ${slow.duration_ms}`);
const capped = await ok(client, 'run', { argv: ['sh', '-c', 'printf %0100d 0'], output_cap_bytes: 10 });
assert.equal(capped.stdout, '0000000000');
assert.equal(capped.stdout_truncated, true);
const binary = await ok(client, 'run', { argv: ['printf', '\\377\\000'] });
assert.deepEqual([binary.stdout, binary.stdout_encoding], ['/wA=', 'base64']);

// Arguments may only tighten the operator's policy; bad arguments are tool errors.
await fails(client, 'run', { argv: ['true'], timeout_ms: 60000 }, 'SBX_E3020');
await fails(client, 'run', { argv: ['true'], output_cap_bytes: 2 << 20 }, 'SBX_E3020');
await fails(client, 'run', { argv: ['true'], output_cap_bytes: 0 }, 'SBX_E3020');
await fails(client, 'run', { argv: ['true'], timeout_ms: 0 }, 'SBX_E1030');
await fails(client, 'run', { argv: ['true'], code: 'x', language: 'sh' }, 'SBX_E1030');
await fails(client, 'run', {}, 'SBX_E1030');
await fails(client, 'run', { code: 'x', language: 'cobol' }, 'SBX_E1030');
await fails(client, 'run', { argv: 'true' }, 'SBX_E1030');
await fails(client, 'run', { argv: ['true'], time_out: 1 }, 'SBX_E1030');
await fails(client, 'run', { argv: ['/no/such/program'] }, 'SBX_E5011');

// A sandbox across calls.
const box = await ok(client, 'sandbox_create');
assert.match(box.sandbox_id, /^sbx-[0-9a-f]{32}$/);
assert.deepEqual({ ...box, sandbox_id: 'x' }, { sandbox_id: 'x', backend: 'local', tier: 'namespace' });
const id = box.sandbox_id;
assert.deepEqual(await ok(client, 'sandbox_write_file', { sandbox_id: id, path: 'src/a.txt', content: 'text\n' }),
                 { path: 'src/a.txt', bytes: 5 });
assert.deepEqual(await ok(client, 'sandbox_write_file', { sandbox_id: id, path: 'bin.dat', content: '/wA=',
                                                          encoding: 'base64', mode: 0o600 }),
                 { path: 'bin.dat', bytes: 2 });
assert.deepEqual(exact(await ok(client, 'sandbox_exec', { sandbox_id: id, argv: ['cat', 'src/a.txt'] })),
                 { ...clean, stdout: 'text\n' });
assert.deepEqual(exact(await ok(client, 'sandbox_exec', { sandbox_id: id, argv: ['sh', '-c', 'pwd > out; ls'],
                                                          cwd: 'src' })),
                 { ...clean, stdout: 'a.txt\nout\n' });
assert.deepEqual(await ok(client, 'sandbox_read_file', { sandbox_id: id, path: 'src/out' }),
                 { path: 'src/out', content: '/work/src\n', encoding: 'utf-8', bytes: 10 });
assert.deepEqual(await ok(client, 'sandbox_read_file', { sandbox_id: id, path: 'bin.dat' }),
                 { path: 'bin.dat', content: '/wA=', encoding: 'base64', bytes: 2 });
assert.deepEqual(await ok(client, 'sandbox_list_files', { sandbox_id: id }), {
  path: '', entries: [
    { name: 'bin.dat', type: 'file', size: 2, mode: 0o600 },
    { name: 'src', type: 'directory', size: (await ok(client, 'sandbox_list_files', { sandbox_id: id })).entries[1].size, mode: 0o755 },
  ] });
assert.deepEqual((await ok(client, 'sandbox_list_files', { sandbox_id: id, path: 'src' })).entries.map((e) => e.name),
                 ['a.txt', 'out']);

// Paths leaving the work dir, in each file tool; missing files; bad ids.
for (const path of ['../etc/passwd', '/etc/passwd', 'src/../../x']) {
  await fails(client, 'sandbox_write_file', { sandbox_id: id, path, content: 'x' }, 'SBX_E3015');
  await fails(client, 'sandbox_read_file', { sandbox_id: id, path }, 'SBX_E3015');
  await fails(client, 'sandbox_list_files', { sandbox_id: id, path }, 'SBX_E3015');
}
await fails(client, 'sandbox_read_file', { sandbox_id: id, path: 'nope' }, 'SBX_E4004');
await fails(client, 'sandbox_write_file', { sandbox_id: id, path: 'x', content: '!!!', encoding: 'base64' }, 'SBX_E1030');
await fails(client, 'sandbox_exec', { sandbox_id: 'sbx-00000000000000000000000000000000', argv: ['true'] }, 'SBX_E4030');
await fails(client, 'sandbox_exec', { sandbox_id: id }, 'SBX_E1030');
await fails(client, 'sandbox_exec', { argv: ['true'] }, 'SBX_E1030');

// The per-client limit, the listing, destroy.
const second = (await ok(client, 'sandbox_create')).sandbox_id;
await fails(client, 'sandbox_create', {}, 'SBX_E3021');
const listed = (await ok(client, 'sandbox_list')).sandboxes;
assert.deepEqual(listed.map((s) => s.sandbox_id).sort(), [id, second].sort());
for (const s of listed) {
  assert.equal(s.backend, 'local');
  assert.equal(typeof s.idle_ms, 'number');
}
assert.deepEqual(await ok(client, 'sandbox_destroy', { sandbox_id: id }), { sandbox_id: id, destroyed: true });
await fails(client, 'sandbox_destroy', { sandbox_id: id }, 'SBX_E4030');
await fails(client, 'sandbox_exec', { sandbox_id: id, argv: ['true'] }, 'SBX_E4030');
assert.deepEqual((await ok(client, 'sandbox_list')).sandboxes.map((s) => s.sandbox_id), [second]);

// Protocol misuse is a JSON-RPC error, not a tool result.
await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), (e) => e.code === -32602);
await assert.rejects(client.request({ method: 'no/such/method', params: {} }, (await import('zod')).z.any()),
                     (e) => e.code === -32601);
await client.ping();
await client.setLoggingLevel('info');

await client.close();
console.log('ok: every tool over stdio');
