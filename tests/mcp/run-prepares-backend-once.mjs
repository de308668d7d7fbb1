// SPDX-License-Identifier: Apache-2.0
// The run tool prepares its backend once per call (sbx_run_ext()), with or
// without a progressToken: the test plugin's probe log gets one line per
// run, where a probe before the run would make two. The output and its cap
// are the same either way.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { rawServer, initialized } from './raw-stdio.mjs';

const build = process.env.SBX_TEST_BUILDDIR;
const probes = `${process.env.TMPDIR || '/tmp'}/sbx-mcp-probes-${process.pid}`;
rmSync(probes, { force: true });
process.env.SANDBOXIO_PLUGIN_PATH = `${build}/tests/plugins/.libs`;
// exec, stream, net-none: what a run under the default policy needs.
process.env.SBX_TESTCAPS_CAPS = (0x1 | 0x2 | 0x80).toString(16);
process.env.SBX_TESTCAPS_PROBE_LOG = probes;
process.env.SBX_TESTCAPS_LOG = `${probes}.calls`;

const counted = () => {
  try { return readFileSync(probes, 'utf8').split('\n').length - 1; } catch { return 0; }
};

const s = rawServer(process.env.SBX, ['mcp', '--dsn', 'testcaps://', '--output-cap', '1000']);
await initialized(s);
// testcaps' "emit N" writes N bytes of 'x' on stdout.
for (const meta of [undefined, { progressToken: 7 }]) {
  const before = counted();
  const r = await s.request('tools/call', { name: 'run', arguments: { argv: ['emit', '1500'] },
                                            ...(meta ? { _meta: meta } : {}) });
  const label = meta ? 'with progress' : 'without progress';
  assert.equal(r.result?.isError, false, `${label}: ${JSON.stringify(r)}`);
  const out = r.result.structuredContent;
  assert.equal(out.stdout, 'x'.repeat(1000), label);
  assert.equal(out.stdout_truncated, true, label);
  assert.equal(counted() - before, 1, `${label}: the backend was probed ${counted() - before} times for one run`);
}
s.p.stdin.end();
await s.exited;
rmSync(probes, { force: true });
rmSync(`${probes}.calls`, { force: true });
console.log('ok: one preparation of the backend per run');
