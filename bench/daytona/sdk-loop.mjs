// SPDX-License-Identifier: Apache-2.0
// The official @daytonaio/sdk's side of bench-daytona: one warm process;
// for each "go" line on stdin it creates a sandbox (and waits until it has
// started, polling: the doubles serve no event socket), runs `true` in it
// and deletes it, then prints the milliseconds that took and the CPU
// milliseconds this process spent on it (user + system, all its threads).
// How it runs `true` is BENCH_SDK_MODE (bench-daytona, which starts it,
// reads it too):
//   execute  process.executeCommand('true') (stdout and stderr merged)
//   session  a session of its own with executeSessionCommand('true')
//            (stdout and stderr apart, as sandboxio's exec keeps them),
//            deleted after
// Pointed at the rig by DAYTONA_API_URL and DAYTONA_API_KEY, as any client is.
import readline from "node:readline";
import { Daytona } from "@daytonaio/sdk";

const mode = process.env.BENCH_SDK_MODE || "execute";
if (mode !== "execute" && mode !== "session") {
  process.stderr.write(`sdk-loop: unknown BENCH_SDK_MODE ${mode} (execute or session)\n`);
  process.exit(2);
}
const SNAPSHOT = process.env.BENCH_SNAPSHOT || "daytona-small";
const daytona = new Daytona({ useDeprecatedPolling: true });
let n = 0;

async function round() {
  const sbx = await daytona.create({ snapshot: SNAPSHOT }, { timeout: 120 });
  let code;
  if (mode === "execute") {
    code = (await sbx.process.executeCommand("true")).exitCode;
  } else {
    const sid = `bench-${process.pid}-${++n}`;
    await sbx.process.createSession(sid);
    code = (await sbx.process.executeSessionCommand(sid, { command: "true" })).exitCode;
    await sbx.process.deleteSession(sid);
  }
  if (code !== 0) throw new Error(`true exited ${code}`);
  await sbx.delete();
}

const rl = readline.createInterface({ input: process.stdin });
for await (const line of rl) {
  if (line.trim() !== "go") continue;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await round();
  const c = process.cpuUsage(c0);
  process.stdout.write(`${(performance.now() - t0).toFixed(3)} ${((c.user + c.system) / 1e3).toFixed(3)}\n`);
}
