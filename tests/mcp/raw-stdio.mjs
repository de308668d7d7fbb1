// SPDX-License-Identifier: Apache-2.0
// A stdio server driven by hand (JSON-RPC lines, no SDK), for the tests
// that signal it or watch its exit: request() resolves with the response
// of the same id; exited with { code, signal }.
import { spawn } from 'node:child_process';

export function rawServer(command, args) {
  const p = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  let buf = '';
  const waiting = new Map();
  p.stdout.on('data', (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      waiting.get(msg.id)?.(msg);
    }
  });
  let next = 1;
  const request = (method, params) => new Promise((resolve) => {
    const id = next++;
    waiting.set(id, resolve);
    p.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  });
  const exited = new Promise((resolve) => p.on('exit', (code, signal) => resolve({ code, signal })));
  return { p, request, exited };
}

// initialize and notifications/initialized.
export async function initialized(s) {
  await s.request('initialize', { protocolVersion: '2025-11-25', capabilities: {},
                                  clientInfo: { name: 't', version: '1' } });
  s.p.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
}
