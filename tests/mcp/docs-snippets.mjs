// SPDX-License-Identifier: Apache-2.0
// Every `mcpServers` snippet of docs/mcp.md parses, and the server it names
// runs: stdio ones are started as written (with this build's sandboxio),
// the HTTP one against the `sandboxio mcp --http` command the page gives.
// Every tool the server lists has its section in the page.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ok } from './client.mjs';

const SBX = process.env.SBX;
const page = readFileSync(join(process.env.SBX_TEST_SRCDIR, 'docs/mcp.md'), 'utf8');
const snippets = [...page.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]).filter((t) => t.includes('mcpServers'));
assert.ok(snippets.length >= 3, `found ${snippets.length} mcpServers snippets`);

async function exercise(client, label) {
  const { tools } = await client.listTools();
  for (const t of tools) assert.ok(page.includes(`### \`${t.name}\``), `docs/mcp.md has no section for ${t.name}`);
  assert.equal((await ok(client, 'run', { argv: ['echo', label] })).stdout, `${label}\n`);
  await client.close();
}

let stdio = 0, http = 0;
for (const text of snippets) {
  const config = JSON.parse(text);
  for (const [name, server] of Object.entries(config.mcpServers)) {
    if (server.command) {
      assert.equal(server.command, 'sandboxio', name);
      const transport = new StdioClientTransport({ command: SBX, args: server.args,
        env: { ...process.env, ...(server.env || {}) }, stderr: 'inherit' });
      const client = new Client({ name: 'docs-snippets', version: '1' });
      await client.connect(transport);
      await exercise(client, name);
      stdio++;
    } else {
      assert.equal(server.type, 'http', name);
      const line = page.match(/^ {4}(sandboxio mcp [^\n]*--http 127\.0\.0\.1:8765[^\n]*)$/m);
      assert.ok(line, 'docs/mcp.md gives no `sandboxio mcp --http` command for the HTTP snippet');
      const token = `docs-${process.pid}`;
      const dir = mkdtempSync(join(tmpdir(), 'sbx-docs-'));
      writeFileSync(join(dir, 'token'), token + '\n');
      const args = line[1].split(/\s+/).slice(1)
        .map((a) => a === '127.0.0.1:8765' ? '127.0.0.1:0' : a)
        .map((a) => a === '~/.config/sandboxio/mcp-token' ? join(dir, 'token') : a);
      const p = spawn(SBX, args, { stdio: ['ignore', 'inherit', 'pipe'] });
      const port = await new Promise((resolve, reject) => {
        let err = '';
        p.stderr.on('data', (d) => { err += d; const m = err.match(/127\.0\.0\.1:(\d+)\/mcp/); if (m) resolve(m[1]); });
        p.on('exit', (c) => reject(new Error(`the documented server exited ${c}: ${err}`)));
      });
      const url = server.url.replace(':8765/', `:${port}/`);
      const headers = Object.fromEntries(Object.entries(server.headers)
        .map(([k, v]) => [k, v.replace('${SANDBOXIO_MCP_TOKEN}', token)]));
      const client = new Client({ name: 'docs-snippets', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      await exercise(client, name);
      p.kill('SIGTERM');
      http++;
    }
  }
}
assert.ok(stdio >= 2 && http >= 1, `stdio ${stdio}, http ${http}`);
console.log(`ok: ${stdio} stdio and ${http} HTTP snippets of docs/mcp.md`);
