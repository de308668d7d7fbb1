// SPDX-License-Identifier: Apache-2.0
// The churn report of scripts/provider-canary: for each provider, the
// newest SDK npm installed against what the project stores and emulates.
//   node canary-report.js --top SRCDIR --modules DIR/node_modules [--session NAME=pass|fail|not-run]...
// Prints the report; exits 1 when upstream broke something an adapter or
// its doubles rely on (the newest SDK's session failed against the doubles,
// or its descriptors lack or retype an element an adapter's recorded
// surface uses), 0 otherwise (drift is reported, not failed).
import fs from "node:fs";
import path from "node:path";
import { PROVIDERS } from "./lib/providers.js";
import { loadSpecs, checkSurface } from "./lib/check.js";
import { normalise, prefixed } from "./lib/openapi.js";
import { restOps, sdkFiles, sdkProtos, protoElements } from "./lib/sdk.js";

const args = process.argv.slice(2);
const val = (n) => { const i = args.indexOf(n); return i >= 0 ? args[i + 1] : undefined; };
const top = val("--top");
const modules = val("--modules");
const sessions = {};
args.forEach((a, i) => { if (a === "--session") { const [k, v] = args[i + 1].split("="); sessions[k] = v; } });

const version = (dir) => {
  try { return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version; } catch { return null; }
};
function pinned(provider) {
  try {
    const lock = JSON.parse(fs.readFileSync(path.join(top, path.dirname(provider.session), "package-lock.json"), "utf8"));
    return lock.packages[`node_modules/${provider.npm}`]?.version ?? null;
  } catch { return null; }
}
function surfaceOf(provider) {
  const f = path.join(top, provider.surface);
  if (!fs.existsSync(f)) return null;
  return fs.readFileSync(f, "utf8").split("\n").filter((l) => l && !l.startsWith("#"));
}

let broke = false;
const say = (s = "") => console.log(s);
say(`provider-canary churn report, ${new Date().toISOString().slice(0, 10)}`);
for (const [name, p] of Object.entries(PROVIDERS)) {
  const breaks = [];
  const drift = [];
  const newest = version(path.join(modules, p.npm));
  say();
  say(`== ${name}: npm ${p.npm} ${newest ?? "(not installed)"}; the doubles pin ${pinned(p) ?? "(none)"}`);
  if (!newest) { breaks.push(`${p.npm} could not be read from ${modules}`); }
  const surface = surfaceOf(p);
  if (!surface) say(`   no recorded surface (${p.surface}) yet: the adapter's elements are not compared`);
  const specs = loadSpecs(top, p);
  const session = sessions[name] ?? "not-run";
  if (session === "fail") breaks.push(`the newest SDK's session failed against the doubles (${p.session}); pinning it would fail make check`);
  say(`   SDK session against the doubles: ${session}`);

  // REST operations the SDK calls, against the stored specs and the adapter's.
  const ops = new Map();
  // The SDK's paths are its spec's; a service's prefix makes them the
  // paths the adapter's surface and the loaded specs hold.
  for (const r of p.sdk.rest)
    for (const f of sdkFiles(modules, r.files))
      for (const op of restOps(fs.readFileSync(f, "utf8"), r.style))
        for (const s of r.services) {
          const at = prefixed(p.specs[s]?.prefix, op.path);
          const key = `${op.method} ${normalise(at)}`;
          const had = ops.get(key);
          ops.set(key, { ...op, path: at, services: [...(had?.services ?? []), s] });
        }
  say(`   REST operations the SDK calls: ${ops.size}`);
  for (const op of [...ops.values()].sort((a, b) => a.path.localeCompare(b.path))) {
    const inSpec = op.services.some((s) => specs[s]?.openapi?.op(op.method, op.path));
    if (inSpec) continue;
    const used = surface?.some((l) => { const w = l.split(" "); return w[1] === op.method && normalise(w[2]) === normalise(op.path); });
    drift.push(`the SDK calls ${op.method} ${op.path}, which no stored spec has` +
      (used ? " (the adapter uses it too: the spec check fails on it)" : "; no adapter element uses it: the adapter is unaffected"));
  }
  for (const l of surface ?? []) {
    const w = l.split(" ");
    if (w.length !== 3 || w[1] === "rpc") continue;
    if (!ops.has(`${w[1]} ${normalise(w[2])}`))
      drift.push(`the adapter's ${w[0]} ${w[1]} ${w[2]}: the newest SDK no longer calls it (still in the stored spec; the spec check fails once a refreshed copy drops it)`);
  }

  // Protobuf descriptors bundled by the SDK, against the stored protos and the adapter's.
  const files = sdkFiles(modules, p.sdk.descriptors);
  const sdkP = files.length ? sdkProtos(files) : null;
  if (sdkP) {
    const stored = specs[p.sdk.protoService].protos;
    const a = protoElements(sdkP);
    const b = protoElements(stored);
    say(`   protobuf elements in the SDK's descriptors: ${a.size}; in the stored protos: ${b.size}`);
    for (const e of [...a].filter((x) => !b.has(x)).sort())
      drift.push(`the SDK's descriptors have ${e}, the stored protos do not (refresh the copy)`);
    for (const e of [...b].filter((x) => !a.has(x)).sort())
      drift.push(`the stored protos have ${e}, the SDK's descriptors do not (removed or changed upstream)`);
    if (surface) {
      const rpc = surface.filter((l) => l.split(" ")[1] === "rpc" && l.split(" ")[3] !== "header");
      const specsFromSdk = { [p.sdk.protoService]: { openapi: null, protos: sdkP } };
      for (const f of checkSurface(rpc, specsFromSdk, p))
        breaks.push(`the adapter uses ${f} in the newest SDK's descriptors (the spec check fails on it once the copy is refreshed)`);
    }
  }
  for (const b of breaks) say(`   BREAK: ${b}`);
  for (const d of drift) say(`   drift: ${d}`);
  say(`   ${name}: ${breaks.length ? "BROKEN" : "no break"} (${breaks.length} break(s), ${drift.length} drift finding(s))`);
  if (breaks.length) broke = true;
}
process.exit(broke ? 1 : 0);
