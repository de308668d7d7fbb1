// SPDX-License-Identifier: Apache-2.0
// @modelcontextprotocol/inspector-cli lists and calls the tools over stdio.
// It exits 0 even when a tool call failed, so its JSON output is checked.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const SBX = process.env.SBX;
// The inspector looks for its package.json relative to the working
// directory ("../package.json"): run it from node_modules, whose parent has one.
const cwd = resolve('node_modules');
const inspector = (...args) => JSON.parse(execFileSync(
  process.execPath, ['.bin/mcp-inspector-cli', '--cli', SBX, 'mcp', '--dsn', 'local://', ...args],
  { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 60000 }));

const { tools } = inspector('--method', 'tools/list');
assert.deepEqual(tools.map((t) => t.name), ['run', 'sandbox_create', 'sandbox_exec', 'sandbox_write_file',
  'sandbox_read_file', 'sandbox_list_files', 'sandbox_destroy', 'sandbox_list']);
assert.ok(tools.every((t) => t.inputSchema && t.outputSchema));

const run = inspector('--method', 'tools/call', '--tool-name', 'run', '--tool-arg', 'argv=["echo","hi"]');
assert.equal(run.isError, false, JSON.stringify(run));
assert.equal(run.structuredContent.stdout, 'hi\n');
assert.equal(run.structuredContent.exit_code, 0);

const code = inspector('--method', 'tools/call', '--tool-name', 'run', '--tool-arg', 'code=print(6*7)',
                       'language=python');
assert.equal(code.structuredContent.stdout, '42\n', JSON.stringify(code));

// A failing call: exit status 0, the error in the JSON.
const bad = inspector('--method', 'tools/call', '--tool-name', 'sandbox_read_file', '--tool-arg',
                      'sandbox_id=sbx-nope', 'path=x');
assert.equal(bad.isError, true);
assert.equal(bad._meta['dev.sandboxio/error'].id, 'SBX_E4030');
assert.match(bad.content[0].text, /^SBX_E4030: /);

const list = inspector('--method', 'tools/call', '--tool-name', 'sandbox_list');
assert.deepEqual(list.structuredContent, { sandboxes: [] });
console.log('ok: inspector-cli lists and calls the tools');
