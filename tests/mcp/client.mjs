// SPDX-License-Identifier: Apache-2.0
// Shared by the MCP tests: the official SDK client connected to
// `sandboxio mcp`, and assertions on tool results.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const SBX = process.env.SBX;

// A client over stdio to `sandboxio mcp ARGS...`; .transport.pid is the server.
export async function stdioClient(args = [], env = {}) {
  const transport = new StdioClientTransport({
    command: SBX,
    args: ['mcp', ...args],
    env: { ...process.env, ...env },
    stderr: 'inherit',
  });
  const client = new Client({ name: 'sandboxio-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

export async function httpClient(url, token) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: 'sandboxio-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

// Call a tool that must succeed; returns its structuredContent.
export async function ok(client, name, args = {}) {
  const r = await client.callTool({ name, arguments: args });
  assert.equal(r.isError, false, `${name} failed: ${JSON.stringify(r.content)}`);
  assert.equal(r.content[0].type, 'text');
  // The text is the structured result, serialized (for clients that read only content).
  assert.deepEqual(JSON.parse(r.content[0].text), r.structuredContent);
  return r.structuredContent;
}

// Call a tool that must fail with sandboxio error `id` (SBX_Ennnn).
export async function fails(client, name, args, id) {
  const r = await client.callTool({ name, arguments: args });
  assert.equal(r.isError, true, `${name} should have failed with ${id}: ${JSON.stringify(r)}`);
  const e = r._meta['dev.sandboxio/error'];
  assert.equal(e.id, id, `${name}: ${JSON.stringify(e)}`);
  assert.equal(e.code, Number(id.slice(5)));
  assert.match(e.docs_url, new RegExp(`/errors/${id}\\.(html|md)$`));
  assert.ok(e.message.length > 0);
  assert.ok(r.content[0].text.startsWith(`${id}: `), r.content[0].text);
  assert.equal(r.structuredContent, undefined);
  return e;
}

// A command's result without its duration, which varies.
export function exact(result) {
  assert.equal(typeof result.duration_ms, 'number');
  const { duration_ms, ...rest } = result;
  return rest;
}

export const done = (code = 0) => { process.exitCode = code; };
