// Proof that the spec check fails, naming the element: on E2B's older
// spec copies (real churn, plugins/e2b/spec/history/) and on copies of the
// current specs with one used element removed, renamed or retyped,
// generated here at test time. Each case lists the exact elements of
// plugins/e2b/wire-surface.txt the check must name, and no other. Last,
// every element of the surface is removed alone from a copy of the specs
// (in memory), and the check must name it.
// Usage: node spec-check-fails.js TOP TMPDIR
import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";
import { PROVIDERS } from "./lib/providers.js";
import { checkSurface, loadSpecs } from "./lib/check.js";
import { OpenApi } from "./lib/openapi.js";
import { Protos } from "./lib/proto.js";

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

// Every element, one at a time: a copy of the specs without it (the
// operation, the query parameter, the field wherever its schema or message
// defines it) must make the check name it. Elements that cannot be removed
// alone (a header from a security scheme, array items, map values) are
// counted, not tried.
function realAlternatives(api, s0, depth = 0) {
  const s = api.ref(s0);
  if (!s || typeof s !== "object" || depth > 16) return [];
  const parts = [...(s.allOf || []), ...(s.oneOf || []), ...(s.anyOf || [])];
  return [s, ...parts.flatMap((x) => realAlternatives(api, x, depth + 1))];
}

function removeField(api, schema, segs) {
  let cur = realAlternatives(api, schema);
  for (const [i, seg] of segs.entries()) {
    if (i === segs.length - 1) {
      let n = 0;
      for (const s of cur) if (s.properties && s.properties[seg]) { delete s.properties[seg]; n++; }
      return n > 0;
    }
    cur = cur.flatMap((s) => {
      if (seg === "[]") return s.items ? realAlternatives(api, s.items) : [];
      if (seg === "*") return typeof s.additionalProperties === "object" ? realAlternatives(api, s.additionalProperties) : [];
      if (s.properties && s.properties[seg]) return realAlternatives(api, s.properties[seg]);
      return typeof s.additionalProperties === "object" ? realAlternatives(api, s.additionalProperties) : [];
    });
  }
  return false;
}

const parsed = loadSpecs(top, e2b);
// Fresh specs to mutate: the OpenAPI documents cloned, the protos parsed again.
function freshSpecs() {
  const out = {};
  for (const [svc, s] of Object.entries(parsed))
    out[svc] = {
      openapi: s.openapi ? new OpenApi(s.openapi.file, structuredClone(s.openapi.doc)) : null,
      protos: s.protos ? new Protos(s.protos.files) : null,
    };
  return out;
}

function withoutElement(el) {
  const w = el.split(" ");
  const specs = freshSpecs();
  if (w[1] === "rpc") {
    if (w.length === 3 || w[3] === "header") return null;
    const [service, name] = w[2].split("/");
    const m = specs[w[0]].protos.method(service, name);
    m.resolve();
    const segs = w[4].split(".");
    if (["[]", "*"].includes(segs[segs.length - 1])) return null;
    const at = specs[w[0]].protos.fieldAt(w[3] === "request" ? m.resolvedRequestType : m.resolvedResponseType, segs);
    if (!at) return null;
    at.msg.remove(at.field);
    return specs;
  }
  const api = specs[w[0]].openapi;
  const o = api.op(w[1], w[2]);
  if (w.length === 3) {
    delete o.item[w[1].toLowerCase()];
    return specs;
  }
  if (w[3] === "query") {
    const keep = (list) => (list || []).filter((p) => !(api.ref(p).in === "query" && api.ref(p).name.toLowerCase() === w[4].toLowerCase()));
    o.op.parameters = keep(o.op.parameters);
    o.item.parameters = keep(o.item.parameters);
    return specs;
  }
  if (w[3] === "header") return null;
  const schema = w[3] === "request" ? api.requestSchema(o) : api.responseSchema(o, w[4]);
  const segs = (w[3] === "request" ? w[4] : w[5]).split(".");
  if (["[]", "*"].includes(segs[segs.length - 1])) return null;
  return removeField(api, schema, segs) ? specs : null;
}

{
  let tried = 0;
  let passed = 0;
  const notNamed = [];
  for (const el of surface) {
    const specs = withoutElement(el);
    if (!specs) continue;
    tried++;
    const named = checkSurface(surface, specs, e2b).map((f) => f.slice(0, f.indexOf(": ")));
    if (named.includes(el)) passed++;
    else notNamed.push(el);
  }
  if (notNamed.length || tried === 0) {
    console.log(`not ok - each element removed alone is named: ${notNamed.length} of ${tried} not named`);
    for (const el of notNamed) console.log(`#   not named: ${el}`);
    failed++;
  } else {
    console.log(`ok - each of ${tried} elements removed alone from a copy of the specs is named ` +
      `(${surface.length - tried} headers, array items and map values not removable alone)`);
  }
}

if (failed) {
  console.log(`# ${failed} case(s) failed`);
  process.exit(1);
}
