// SPDX-License-Identifier: Apache-2.0
// Every client configuration of docs/mcp.md parses, follows the documented
// format of the client it is given for (Claude Code, Claude Desktop, Cursor,
// VS Code: the key that holds the servers, the fields, how a variable is
// written), and the server it names runs: stdio ones are started as written
// (with this build's sandboxio), HTTP ones against the `sandboxio mcp --http`
// command the page gives, their variables given the token.
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

// The section on clients, one "### Client" heading each: every JSON snippet
// under a heading is that client's configuration file.
const section = page.slice(page.indexOf('## Configuring agent clients'), page.indexOf('## What this version'));
assert.ok(section.length > 0, 'docs/mcp.md has no "Configuring agent clients" section');
const snippets = [];
for (const part of section.split(/^### /m).slice(1)) {
  const client = part.slice(0, part.indexOf('\n')).trim();
  for (const m of part.matchAll(/```json\n([\s\S]*?)```/g)) snippets.push({ client, text: m[1] });
}

// Each client's documented format (docs/mcp.md names the file and key of
// each): which key holds the servers, and how a value names a variable.
const ENV_REF = /\$\{([^}]*)\}/g;
const rules = {
  'Claude Code': { key: 'mcpServers', ref: /^[A-Za-z_][A-Za-z0-9_]*(:-.*)?$/, http: true },
  'Claude Desktop': { key: 'mcpServers', ref: null, http: false },
  'Cursor': { key: 'mcpServers', ref: /^env:[A-Za-z_][A-Za-z0-9_]*$/, http: true },
  'VS Code': { key: 'servers', ref: /^input:[A-Za-z0-9_-]+$/, http: true, typed: true },
};
for (const name of Object.keys(rules))
  assert.ok(snippets.some((s) => s.client === name), `docs/mcp.md has no snippet for ${name}`);

// The references of a server's strings; checked against the client's syntax.
function refs(server) {
  return [...JSON.stringify(server).matchAll(ENV_REF)].map((m) => m[1]);
}

function check(client, config) {
  const rule = rules[client];
  assert.ok(rule, `a snippet under "${client}", a client with no rules here`);
  const other = rule.key === 'servers' ? 'mcpServers' : 'servers';
  assert.ok(config[rule.key] && !config[other], `${client} reads "${rule.key}", not "${other}"`);
  const inputs = new Map((config.inputs || []).map((i) => [i.id, i]));
  for (const [name, server] of Object.entries(config[rule.key])) {
    if (rule.typed)
      assert.ok(server.type === (server.command ? 'stdio' : 'http'), `${client}: ${name} needs its "type"`);
    if (!server.command)
      assert.ok(rule.http && server.url, `${client}: ${name} is neither a command nor a URL the client takes`);
    for (const r of refs(server)) {
      assert.ok(rule.ref && rule.ref.test(r), `${client}: \${${r}} in ${name} is not a variable ${client} expands`);
      if (r.startsWith('input:'))
        assert.equal(inputs.get(r.slice(6))?.password, true, `${client}: \${${r}} has no password input`);
    }
  }
  return config[rule.key];
}

// A server's strings with every variable given its value.
function expand(value, values) {
  return value.replace(ENV_REF, (_, r) => {
    const name = r.replace(/^(env|input):/, '').replace(/:-.*$/, '');
    assert.ok(name in values, `no value for \${${r}}`);
    return values[name];
  });
}

async function exercise(client, label) {
  const { tools } = await client.listTools();
  for (const t of tools) assert.ok(page.includes(`### \`${t.name}\``), `docs/mcp.md has no section for ${t.name}`);
  assert.equal((await ok(client, 'run', { argv: ['echo', label] })).stdout, `${label}\n`);
  await client.close();
}

let stdio = 0, http = 0;
for (const { client, text } of snippets) {
  const servers = check(client, JSON.parse(text));
  for (const [name, server] of Object.entries(servers)) {
    if (server.command) {
      assert.equal(server.command, 'sandboxio', name);
      const transport = new StdioClientTransport({ command: SBX, args: server.args,
        env: { ...process.env, ...(server.env || {}) }, stderr: 'inherit' });
      const client = new Client({ name: 'docs-snippets', version: '1' });
      await client.connect(transport);
      await exercise(client, name);
      stdio++;
    } else {
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
      const values = { SANDBOXIO_MCP_TOKEN: token, 'sandboxio-token': token };
      const url = expand(server.url, values).replace(':8765/', `:${port}/`);
      const headers = Object.fromEntries(Object.entries(server.headers || {})
        .map(([k, v]) => [k, expand(v, values)]));
      const client = new Client({ name: 'docs-snippets', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      await exercise(client, name);
      p.kill('SIGTERM');
      http++;
    }
  }
}
assert.ok(stdio >= 3 && http >= 3, `stdio ${stdio}, http ${http}`);
console.log(`ok: ${stdio} stdio and ${http} HTTP snippets of docs/mcp.md`);
