// SPDX-License-Identifier: Apache-2.0
// The spec check's command line.
//   node spec-check.js record PROVIDER RECORDING...   print the surface recorded
//   node spec-check.js check PROVIDER [--surface FILE] [--spec SVC.openapi=FILE]
//                                     [--spec SVC.protos=FILE,FILE]
// check prints one line per element of the surface the specs lack or type
// differently and exits 1 when there is any. PROVIDER is a key of
// lib/providers.js; --top DIR is the source tree (default: SBX_TEST_SRCDIR).
import fs from "node:fs";
import { PROVIDERS } from "./lib/providers.js";
import { buildSurface, readRecording, sourceLiterals, expandSources } from "./lib/surface.js";
import { checkSurface, loadSpecs } from "./lib/check.js";

const args = process.argv.slice(2);
const opt = (name) => {
  const out = [];
  for (let i = args.indexOf(name); i >= 0; i = args.indexOf(name, i + 1)) {
    out.push(args[i + 1]);
    args.splice(i, 2);
    i--;
  }
  return out;
};
const top = opt("--top")[0] || process.env.SBX_TEST_SRCDIR || ".";
const surfaceFile = opt("--surface")[0];
const overrides = {};
for (const s of opt("--spec")) {
  const [k, v] = s.split("=");
  overrides[k] = k.endsWith(".protos") ? v.split(",") : v;
}
const [cmd, name, ...rest] = args;
const provider = PROVIDERS[name];
if (!provider || !["record", "check"].includes(cmd)) {
  console.error("usage: spec-check.js record|check PROVIDER ...");
  process.exit(2);
}

if (cmd === "record") {
  const specs = loadSpecs(top, provider);
  const lines = rest.flatMap(readRecording);
  const literals = sourceLiterals(expandSources(top, provider.sources));
  const surface = buildSurface(lines, provider, literals, (svc) => specs[svc]?.openapi?.templates() ?? []);
  process.stdout.write(surface.join("\n") + "\n");
} else {
  const file = surfaceFile || `${top}/${provider.surface}`;
  const lines = fs.readFileSync(file, "utf8").split("\n").filter((l) => l && !l.startsWith("#"));
  const findings = checkSurface(lines, loadSpecs(top, provider, overrides), provider);
  for (const f of findings) console.log(f);
  if (findings.length) process.exit(1);
  console.error(`${lines.length} elements of ${name}'s surface, all in the specs`);
}
