// SPDX-License-Identifier: Apache-2.0
// bench/mcp/bench-mcp.mjs - the MCP server's latency, from the official SDK
// client over stdio, all variants interleaved round by round:
//   pooled    `run` of true on local:// with --pool 4
//   unpooled  `run` of true on local:// without a pool
//   floor     the reference server-everything's trivial `echo` tool: the
//             protocol's own cost (JSON-RPC over a pipe, the SDK)
//   bwrap     a one-shot `bwrap ... true` spawned by the same process
// then the server's RSS with 8 sandboxes open. Prints p50/p95 and the
// medians of the per-round ratios.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const SBX = process.env.SBX;
const ROUNDS = Number(process.env.RUNS || 200);
const BWRAP = ['--unshare-all', '--die-with-parent', '--ro-bind', '/usr', '/usr', '--symlink', 'usr/bin', '/bin',
  '--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64', '--symlink', 'usr/sbin', '/sbin',
  '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--tmpfs', '/work', '--chdir', '/work', 'true'];

async function connect(command, args) {
  const transport = new StdioClientTransport({ command, args, env: process.env, stderr: 'inherit' });
  const client = new Client({ name: 'bench-mcp', version: '1' });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

const pooled = await connect(SBX, ['mcp', '--dsn', 'local://', '--pool', '4']);
const unpooled = await connect(SBX, ['mcp', '--dsn', 'local://']);
const floor = await connect(process.execPath, ['node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio']);

async function call(c, name, args) {
  const r = await c.client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(JSON.stringify(r));
}
const variants = {
  pooled: () => call(pooled, 'run', { argv: ['true'] }),
  unpooled: () => call(unpooled, 'run', { argv: ['true'] }),
  floor: () => call(floor, 'echo', { message: 'x' }),
  bwrap: () => new Promise((resolve, reject) => {
    spawn('bwrap', BWRAP, { stdio: 'ignore' }).on('exit', (code) => code === 0 ? resolve() : reject(new Error(`bwrap ${code}`)));
  }),
};
const names = Object.keys(variants);
const times = Object.fromEntries(names.map((n) => [n, []]));

// Warm up each (the pool fills, the caches warm), then the rounds.
for (let i = 0; i < 5; i++) for (const n of names) await variants[n]();
await new Promise((r) => setTimeout(r, 500));
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < names.length; k++) {
    const n = names[(round + k) % names.length];     // rotate who goes first
    const t0 = process.hrtime.bigint();
    await variants[n]();
    times[n].push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  // A pooled run leaves a refill under way: the gap a real agent leaves too.
  await new Promise((r) => setTimeout(r, 20));
}

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const median = (xs) => pct(xs, 0.5);
const ratio = (a, b) => median(times[a].map((x, i) => x / times[b][i]));

console.log(`# machine: ${readFileSync('/proc/loadavg', 'utf8').trim()} (loadavg), ${ROUNDS} interleaved rounds`);
console.log('| variant | p50 ms | p95 ms |');
console.log('|---|---|---|');
for (const n of names) console.log(`| ${n} | ${median(times[n]).toFixed(1)} | ${pct(times[n], 0.95).toFixed(1)} |`);
console.log('');
console.log(`pooled / bwrap one-shot   (median of per-round ratios): ${ratio('pooled', 'bwrap').toFixed(2)}  (target <= 0.5)`);
console.log(`pooled / unpooled run     (median of per-round ratios): ${ratio('pooled', 'unpooled').toFixed(2)}  (target <= 0.4)`);
console.log(`pooled / protocol floor   (median of per-round ratios): ${ratio('pooled', 'floor').toFixed(2)}`);
console.log(`unpooled / bwrap one-shot (median of per-round ratios): ${ratio('unpooled', 'bwrap').toFixed(2)}`);

// The server's own memory with 8 sandboxes open (the sandboxes' processes are their own).
for (let i = 0; i < 8; i++) await call(unpooled, 'sandbox_create', {});
const rss = readFileSync(`/proc/${unpooled.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)[1];
console.log(`server RSS with 8 sandboxes open: ${(rss / 1024).toFixed(1)} MiB  (target <= 10 MiB)`);

for (const c of [pooled, unpooled, floor]) await c.client.close();
