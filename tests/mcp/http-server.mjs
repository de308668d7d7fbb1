// SPDX-License-Identifier: Apache-2.0
// Start `sandboxio mcp --http 127.0.0.1:0 ARGS...` and learn its URL.
import { spawn } from 'node:child_process';

export async function httpServer(args = [], env = {}) {
  const p = spawn(process.env.SBX, ['mcp', '--dsn', 'local://', '--http', '127.0.0.1:0', ...args],
                  { stdio: ['ignore', 'inherit', 'pipe'], env: { ...process.env, ...env } });
  let err = '';
  const url = await new Promise((resolve, reject) => {
    p.stderr.on('data', (d) => {
      err += d;
      process.stderr.write(d);
      const m = err.match(/serving (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
      if (m) resolve(m[1]);
    });
    p.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
  const exited = new Promise((resolve) => p.on('exit', (code) => resolve(code)));
  return { p, url, exited, stop: async () => { p.kill('SIGTERM'); return exited; } };
}
