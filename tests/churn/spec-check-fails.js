// Proof that the spec check fails, naming the element: on E2B's older
// spec copies (real churn, plugins/e2b/spec/history/) and on copies of the
// current specs with one used element removed, renamed or retyped,
// generated here at test time. Each case lists the exact elements of
// plugins/e2b/wire-surface.txt the check must name, and no other.
// Usage: node spec-check-fails.js TOP TMPDIR
import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";
import { PROVIDERS } from "./lib/providers.js";
import { checkSurface, loadSpecs } from "./lib/check.js";

const [top, tmp] = process.argv.slice(2);
const e2b = PROVIDERS.e2b;
const spec = (f) => path.join(top, "plugins/e2b/spec", f);
const surface = fs.readFileSync(path.join(top, e2b.surface), "utf8").split("\n").filter((l) => l && !l.startsWith("#"));
let failed = 0;

function openapiCopy(file, edit) {
  const doc = YAML.parse(fs.readFileSync(spec(file), "utf8"), { maxAliasCount: -1 });
  edit(doc);
  const out = path.join(tmp, `${path.basename(file)}.${Math.random().toString(36).slice(2)}.yml`);
  fs.writeFileSync(out, YAML.stringify(doc, { aliasDuplicateObjects: false }));
  return out;
}

function protoCopy(file, from, to) {
  const text = fs.readFileSync(spec(file), "utf8");
  if (!text.includes(from)) throw new Error(`${file} has no "${from}" to mutate`);
  const out = path.join(tmp, `${Math.random().toString(36).slice(2)}-${path.basename(file)}`);
  fs.writeFileSync(out, text.replace(from, to));
  return out;
}

function expectNamed(what, overrides, want) {
  for (const el of want)
    if (!surface.includes(el)) {
      console.log(`not ok - ${what}: "${el}" is not in the recorded surface; the case tests nothing`);
      failed++;
      return;
    }
  const findings = checkSurface(surface, loadSpecs(top, e2b, overrides), e2b);
  const named = findings.map((f) => f.slice(0, f.indexOf(": ")));
  const extra = named.filter((n) => !want.includes(n));
  const lacking = want.filter((n) => !named.includes(n));
  if (extra.length || lacking.length) {
    console.log(`not ok - ${what}`);
    for (const n of lacking) console.log(`#   not named: ${n}`);
    for (const n of extra) console.log(`#   named but not expected: ${n}`);
    failed++;
  } else {
    console.log(`ok - ${what}`);
    for (const f of findings) console.log(`#   ${f}`);
  }
}

const protos = (fs1, ps1) => ({ "envd.protos": [ps1 ?? spec("process.proto"), fs1 ?? spec("filesystem.proto")] });

// Real churn: the older copies.
expectNamed("the older filesystem.proto and process.proto (history/)", {
  "envd.protos": [spec("history/process.proto"), spec("history/filesystem.proto")],
}, [
  "envd rpc filesystem.Filesystem/ListDir request depth integer",
  "envd rpc filesystem.Filesystem/ListDir response entries.[].mode integer",
  "envd rpc filesystem.Filesystem/ListDir response entries.[].size string",
  "envd rpc filesystem.Filesystem/MakeDir response entry.mode integer",
  "envd rpc filesystem.Filesystem/MakeDir response entry.size string",
]);
// The older openapi.yml lacks only what the adapter does not use (fork,
// secrets, running counts): the check must pass on it, not cry wolf.
expectNamed("the older openapi.yml (history/): nothing the adapter uses is missing", {
  "api.openapi": spec("history/openapi.yml"),
}, []);

// Copies of the current specs, one used element changed.
expectNamed("openapi.yml without NewSandbox.secure (removed)", {
  "api.openapi": openapiCopy("openapi.yml", (d) => { delete d.components.schemas.NewSandbox.properties.secure; }),
}, ["api POST /sandboxes request secure boolean"]);
expectNamed("openapi.yml with Sandbox.envdAccessToken renamed accessToken", {
  "api.openapi": openapiCopy("openapi.yml", (d) => {
    const p = d.components.schemas.Sandbox.properties;
    p.accessToken = p.envdAccessToken;
    delete p.envdAccessToken;
  }),
}, [
  "api POST /sandboxes response 201 envdAccessToken string",
  "api POST /sandboxes/{sandboxID}/connect response 200 envdAccessToken string",
  "api POST /sandboxes/{sandboxID}/connect response 201 envdAccessToken string",
]);
expectNamed("openapi.yml with NewSandbox.timeout retyped string", {
  "api.openapi": openapiCopy("openapi.yml", (d) => { d.components.schemas.NewSandbox.properties.timeout.type = "string"; }),
}, ["api POST /sandboxes request timeout integer"]);
expectNamed("openapi.yml without POST /sandboxes/{sandboxID}/pause", {
  "api.openapi": openapiCopy("openapi.yml", (d) => { delete d.paths["/sandboxes/{sandboxID}/pause"].post; }),
}, ["api POST /sandboxes/{sandboxID}/pause", "api POST /sandboxes/{sandboxID}/pause header x-api-key"]);
expectNamed("openapi.yml without the metadata query parameter of GET /v2/sandboxes", {
  "api.openapi": openapiCopy("openapi.yml", (d) => {
    const op = d.paths["/v2/sandboxes"].get;
    op.parameters = op.parameters.filter((p) => !(p.name === "metadata" || /metadata/i.test(p.$ref || "")));
  }),
}, ["api GET /v2/sandboxes query metadata"]);
expectNamed("envd.yaml without the path query parameter of /files", {
  "envd.openapi": openapiCopy("envd.yaml", (d) => {
    for (const m of ["get", "post"]) {
      const op = d.paths["/files"][m];
      op.parameters = (op.parameters || []).filter((p) => !/FilePath|path/.test(p.$ref || p.name || ""));
    }
    d.paths["/files"].parameters = (d.paths["/files"].parameters || []).filter((p) => !/FilePath|path/.test(p.$ref || p.name || ""));
  }),
}, ["envd GET /files query path", "envd POST /files query path"]);
expectNamed("filesystem.proto without ListDirRequest.depth (removed)", protos(
  protoCopy("filesystem.proto", "uint32 depth = 2;", ""),
), ["envd rpc filesystem.Filesystem/ListDir request depth integer"]);
expectNamed("process.proto with DataEvent.stdout renamed out", protos(undefined,
  protoCopy("process.proto", "bytes stdout = 1;", "bytes out = 1;"),
), ["envd rpc process.Process/Start response event.data.stdout string"]);
expectNamed("process.proto with StartEvent.pid retyped string", protos(undefined,
  protoCopy("process.proto", "uint32 pid = 1;", "string pid = 1;"),
), ["envd rpc process.Process/Start response event.start.pid integer"]);

if (failed) {
  console.log(`# ${failed} case(s) failed`);
  process.exit(1);
}
