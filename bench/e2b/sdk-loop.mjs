// SPDX-License-Identifier: Apache-2.0
// The official e2b SDK's side of bench-e2b: one warm process; for each
// "go" line on stdin it creates a sandbox, runs `true` in it and kills it,
// then prints the milliseconds that took and the CPU milliseconds this
// process spent on it (user + system, all its threads). Pointed at the rig by
// E2B_API_URL, E2B_SANDBOX_URL and E2B_API_KEY, as any client is. A
// "served" line is answered with the rig's counters of the time the doubles
// spent answering (GET $RIG_CONTROL/_control/served): "FRONT API ENVD", ms.
import readline from "node:readline";
import { Sandbox } from "e2b";

const rl = readline.createInterface({ input: process.stdin });
for await (const line of rl) {
  if (line.trim() === "served") {
    const t = await (await fetch(`${process.env.RIG_CONTROL}/_control/served`)).json();
    process.stdout.write(`${t.front.toFixed(3)} ${t.api.toFixed(3)} ${t.envd.toFixed(3)}\n`);
    continue;
  }
  if (line.trim() !== "go") continue;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const sbx = await Sandbox.create("base", { timeoutMs: 120_000 });
  const r = await sbx.commands.run("true");
  if (r.exitCode !== 0) throw new Error(`true exited ${r.exitCode}`);
  await sbx.kill();
  const c = process.cpuUsage(c0);
  process.stdout.write(`${(performance.now() - t0).toFixed(3)} ${((c.user + c.system) / 1e3).toFixed(3)}\n`);
}
