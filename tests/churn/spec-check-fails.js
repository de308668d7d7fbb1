// SPDX-License-Identifier: Apache-2.0
// Proof that the spec check fails, naming the element, for each adapter:
// on E2B's older spec copies (real churn, plugins/e2b/spec/history/; there
// is no such history of Daytona's specs: its public repository went
// private, see docs/churn-log.md) and on copies of the current specs with
// one used element removed, renamed or retyped, generated here at test
// time. Each case lists the exact elements of the adapter's
// wire-surface.txt the check must name, and no other. Last, every element
// of each surface is removed alone from a copy of the specs (in memory),
// and the check must name it.
// Usage: node spec-check-fails.js TOP TMPDIR
import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";
import { PROVIDERS } from "./lib/providers.js";
import { checkSurface, loadSpecs } from "./lib/check.js";
import { OpenApi } from "./lib/openapi.js";
import { Protos } from "./lib/proto.js";

const [top, tmp] = process.argv.slice(2);
let failed = 0;

const surfaceOf = (p) =>
  fs.readFileSync(path.join(top, p.surface), "utf8").split("\n").filter((l) => l && !l.startsWith("#"));

// A copy of a stored OpenAPI document (path relative to the source tree)
// with `edit` applied, written to TMPDIR.
function openapiCopy(file, edit) {
  const doc = YAML.parse(fs.readFileSync(path.join(top, file), "utf8"), { maxAliasCount: -1 });
  edit(doc);
  const out = path.join(tmp, `${path.basename(file)}.${Math.random().toString(36).slice(2)}.yml`);
  fs.writeFileSync(out, YAML.stringify(doc, { aliasDuplicateObjects: false }));
  return out;
}

function protoCopy(file, from, to) {
  const text = fs.readFileSync(path.join(top, file), "utf8");
  if (!text.includes(from)) throw new Error(`${file} has no "${from}" to mutate`);
  const out = path.join(tmp, `${Math.random().toString(36).slice(2)}-${path.basename(file)}`);
  fs.writeFileSync(out, text.replace(from, to));
  return out;
}

function expectNamed(name, what, overrides, want) {
  const p = PROVIDERS[name];
  const surface = surfaceOf(p);
  what = `${name}: ${what}`;
  for (const el of want)
    if (!surface.includes(el)) {
      console.log(`not ok - ${what}: "${el}" is not in the recorded surface; the case tests nothing`);
      failed++;
      return;
    }
  const findings = checkSurface(surface, loadSpecs(top, p, overrides), p);
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

// ---- e2b ----
const e2bSpec = (f) => path.join(top, "plugins/e2b/spec", f);
const e2bApi = "plugins/e2b/spec/openapi.yml";
const e2bEnvd = "plugins/e2b/spec/envd.yaml";
const protos = (fs1, ps1) => ({ "envd.protos": [ps1 ?? e2bSpec("process.proto"), fs1 ?? e2bSpec("filesystem.proto")] });

// Real churn: the older copies.
expectNamed("e2b", "the older filesystem.proto and process.proto (history/)", {
  "envd.protos": [e2bSpec("history/process.proto"), e2bSpec("history/filesystem.proto")],
}, [
  "envd rpc filesystem.Filesystem/ListDir request depth integer",
  "envd rpc filesystem.Filesystem/ListDir response entries.[].mode integer",
  "envd rpc filesystem.Filesystem/ListDir response entries.[].modifiedTime string",
  "envd rpc filesystem.Filesystem/ListDir response entries.[].size string",
  "envd rpc filesystem.Filesystem/ListDir response entries.[].symlinkTarget string",
  "envd rpc filesystem.Filesystem/MakeDir response entry.mode integer",
  "envd rpc filesystem.Filesystem/MakeDir response entry.modifiedTime string",
  "envd rpc filesystem.Filesystem/MakeDir response entry.size string",
]);
// The older openapi.yml lacks only what the adapter does not use (fork,
// secrets, running counts): the check must pass on it, not cry wolf.
expectNamed("e2b", "the older openapi.yml (history/): nothing the adapter uses is missing", {
  "api.openapi": e2bSpec("history/openapi.yml"),
}, []);

// Copies of the current specs, one used element changed.
expectNamed("e2b", "openapi.yml without NewSandbox.secure (removed)", {
  "api.openapi": openapiCopy(e2bApi, (d) => { delete d.components.schemas.NewSandbox.properties.secure; }),
}, ["api POST /sandboxes request secure boolean"]);
expectNamed("e2b", "openapi.yml with Sandbox.envdAccessToken renamed accessToken", {
  "api.openapi": openapiCopy(e2bApi, (d) => {
    const p = d.components.schemas.Sandbox.properties;
    p.accessToken = p.envdAccessToken;
    delete p.envdAccessToken;
  }),
}, [
  "api POST /sandboxes response 201 envdAccessToken string",
  "api POST /sandboxes/{sandboxID}/connect response 200 envdAccessToken string",
  "api POST /sandboxes/{sandboxID}/connect response 201 envdAccessToken string",
]);
expectNamed("e2b", "openapi.yml with NewSandbox.timeout retyped string", {
  "api.openapi": openapiCopy(e2bApi, (d) => { d.components.schemas.NewSandbox.properties.timeout.type = "string"; }),
}, ["api POST /sandboxes request timeout integer"]);
expectNamed("e2b", "openapi.yml without POST /sandboxes/{sandboxID}/pause", {
  "api.openapi": openapiCopy(e2bApi, (d) => { delete d.paths["/sandboxes/{sandboxID}/pause"].post; }),
}, ["api POST /sandboxes/{sandboxID}/pause", "api POST /sandboxes/{sandboxID}/pause header x-api-key"]);
expectNamed("e2b", "openapi.yml without the metadata query parameter of GET /v2/sandboxes", {
  "api.openapi": openapiCopy(e2bApi, (d) => {
    const op = d.paths["/v2/sandboxes"].get;
    op.parameters = op.parameters.filter((p) => !(p.name === "metadata" || /metadata/i.test(p.$ref || "")));
  }),
}, ["api GET /v2/sandboxes query metadata"]);
expectNamed("e2b", "envd.yaml without the path query parameter of /files", {
  "envd.openapi": openapiCopy(e2bEnvd, (d) => {
    for (const m of ["get", "post"]) {
      const op = d.paths["/files"][m];
      op.parameters = (op.parameters || []).filter((p) => !/FilePath|path/.test(p.$ref || p.name || ""));
    }
    d.paths["/files"].parameters = (d.paths["/files"].parameters || []).filter((p) => !/FilePath|path/.test(p.$ref || p.name || ""));
  }),
}, ["envd GET /files query path", "envd POST /files query path"]);
expectNamed("e2b", "filesystem.proto without ListDirRequest.depth (removed)", protos(
  protoCopy("plugins/e2b/spec/filesystem.proto", "uint32 depth = 2;", ""),
), ["envd rpc filesystem.Filesystem/ListDir request depth integer"]);
expectNamed("e2b", "process.proto with DataEvent.stdout renamed out", protos(undefined,
  protoCopy("plugins/e2b/spec/process.proto", "bytes stdout = 1;", "bytes out = 1;"),
), ["envd rpc process.Process/Start response event.data.stdout string"]);
expectNamed("e2b", "process.proto with StartEvent.pid retyped string", protos(undefined,
  protoCopy("plugins/e2b/spec/process.proto", "uint32 pid = 1;", "string pid = 1;"),
), ["envd rpc process.Process/Start response event.start.pid integer"]);

// ---- daytona: no older copies exist to run against (see the top) ----
const dtnApi = "plugins/daytona/spec/api-openapi.yaml";
const dtnToolbox = "plugins/daytona/spec/toolbox-openapi.yaml";
expectNamed("daytona", "api-openapi.yaml without CreateSandbox.networkBlockAll (removed)", {
  "api.openapi": openapiCopy(dtnApi, (d) => { delete d.components.schemas.CreateSandbox.properties.networkBlockAll; }),
}, ["api POST /sandbox request networkBlockAll boolean"]);
expectNamed("daytona", "api-openapi.yaml with Sandbox.toolboxProxyUrl renamed proxyUrl", {
  "api.openapi": openapiCopy(dtnApi, (d) => {
    const p = d.components.schemas.Sandbox.properties;
    p.proxyUrl = p.toolboxProxyUrl;
    delete p.toolboxProxyUrl;
  }),
}, [
  "api DELETE /sandbox/{sandboxIdOrName} response 200 toolboxProxyUrl string",
  "api GET /sandbox/{sandboxIdOrName} response 200 toolboxProxyUrl string",
  "api POST /sandbox response 200 toolboxProxyUrl string",
]);
expectNamed("daytona", "api-openapi.yaml with CreateSandbox.ttlMinutes retyped string", {
  "api.openapi": openapiCopy(dtnApi, (d) => { d.components.schemas.CreateSandbox.properties.ttlMinutes.type = "string"; }),
}, ["api POST /sandbox request ttlMinutes integer"]);
expectNamed("daytona", "api-openapi.yaml without the labels query parameter of GET /sandbox", {
  "api.openapi": openapiCopy(dtnApi, (d) => {
    const op = d.paths["/sandbox"].get;
    op.parameters = op.parameters.filter((p) => p.name !== "labels");
  }),
}, ["api GET /sandbox query labels"]);
// The toolbox's organisation header is excused (the proxy's), the
// control plane's is not.
expectNamed("daytona", "api-openapi.yaml without the X-Daytona-Organization-ID header", {
  "api.openapi": openapiCopy(dtnApi, (d) => {
    for (const item of Object.values(d.paths))
      for (const op of Object.values(item))
        if (op && Array.isArray(op.parameters)) op.parameters = op.parameters.filter((p) => p.name !== "X-Daytona-Organization-ID");
  }),
}, [
  "api DELETE /sandbox/{sandboxIdOrName} header x-daytona-organization-id",
  "api GET /sandbox/{sandboxIdOrName} header x-daytona-organization-id",
  "api POST /sandbox header x-daytona-organization-id",
]);
expectNamed("daytona", "toolbox-openapi.yaml with ExecuteResponse.exitCode renamed code", {
  "toolbox.openapi": openapiCopy(dtnToolbox, (d) => {
    const p = d.components.schemas.ExecuteResponse.properties;
    p.code = p.exitCode;
    delete p.exitCode;
  }),
}, ["toolbox POST /{sandboxId}/process/execute response 200 exitCode integer"]);
expectNamed("daytona", "toolbox-openapi.yaml with SessionExecuteRequest.runAsync retyped string", {
  "toolbox.openapi": openapiCopy(dtnToolbox, (d) => { d.components.schemas.SessionExecuteRequest.properties.runAsync.type = "string"; }),
}, ["toolbox POST /{sandboxId}/process/session/{sessionId}/exec request runAsync boolean"]);
expectNamed("daytona", "toolbox-openapi.yaml without the recursive query parameter of DELETE /files", {
  "toolbox.openapi": openapiCopy(dtnToolbox, (d) => {
    const op = d.paths["/files"].delete;
    op.parameters = op.parameters.filter((p) => p.name !== "recursive");
  }),
}, ["toolbox DELETE /{sandboxId}/files query recursive"]);
expectNamed("daytona", "toolbox-openapi.yaml without POST /process/session/{sessionId}/command/{commandId}/input", {
  "toolbox.openapi": openapiCopy(dtnToolbox, (d) => { delete d.paths["/process/session/{sessionId}/command/{commandId}/input"].post; }),
}, [
  "toolbox POST /{sandboxId}/process/session/{sessionId}/command/{commandId}/input",
  "toolbox POST /{sandboxId}/process/session/{sessionId}/command/{commandId}/input header authorization",
  "toolbox POST /{sandboxId}/process/session/{sessionId}/command/{commandId}/input request data string",
  "toolbox POST /{sandboxId}/process/session/{sessionId}/command/{commandId}/input response 410 message string",
]);
expectNamed("daytona", "toolbox-openapi.yaml with the 410 of the input no longer ErrorResponse", {
  "toolbox.openapi": openapiCopy(dtnToolbox, (d) => {
    d.paths["/process/session/{sessionId}/command/{commandId}/input"].post.responses["410"].content = { "text/plain": { schema: { type: "string" } } };
  }),
}, ["toolbox POST /{sandboxId}/process/session/{sessionId}/command/{commandId}/input response 410 message string"]);

// Every element, one at a time: a copy of the specs without it (the
// operation, the query parameter, the field wherever its schema or message
// defines it, the header parameter) must make the check name it. Elements
// that cannot be removed alone (a header from a security scheme or excused
// as off-spec, array items, map values) are counted, not tried.
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

// Fresh specs to mutate: the OpenAPI documents cloned, the protos parsed again.
function freshSpecs(parsed) {
  const out = {};
  for (const [svc, s] of Object.entries(parsed))
    out[svc] = {
      openapi: s.openapi ? new OpenApi(s.openapi.file, structuredClone(s.openapi.doc)) : null,
      protos: s.protos ? new Protos(s.protos.files) : null,
    };
  return out;
}

function withoutElement(el, parsed) {
  const w = el.split(" ");
  const specs = freshSpecs(parsed);
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
  if (w[3] === "header") {
    const keep = (list) => (list || []).filter((p) => !(api.ref(p).in === "header" && api.ref(p).name.toLowerCase() === w[4]));
    o.op.parameters = keep(o.op.parameters);
    o.item.parameters = keep(o.item.parameters);
    return api.hasHeader(o, w[4]) ? null : specs;
  }
  const schema = w[3] === "request" ? api.requestSchema(o) : api.responseSchema(o, w[4]);
  const segs = (w[3] === "request" ? w[4] : w[5]).split(".");
  if (["[]", "*"].includes(segs[segs.length - 1])) return null;
  return removeField(api, schema, segs) ? specs : null;
}

for (const name of ["e2b", "daytona"]) {
  const p = PROVIDERS[name];
  const surface = surfaceOf(p);
  const parsed = loadSpecs(top, p);
  let tried = 0;
  const notNamed = [];
  for (const el of surface) {
    const h = el.split(" ");
    // An excused header is not checked against the spec: nothing to remove.
    if (h[h.length - 2] === "header" && (p.offSpecHeaders[h[h.length - 1]] || p.offSpecHeaders[`${h[0]} ${h[h.length - 1]}`])) continue;
    const specs = withoutElement(el, parsed);
    if (!specs) continue;
    tried++;
    const named = checkSurface(surface, specs, p).map((f) => f.slice(0, f.indexOf(": ")));
    if (!named.includes(el)) notNamed.push(el);
  }
  if (notNamed.length || tried === 0) {
    console.log(`not ok - ${name}: each element removed alone is named: ${notNamed.length} of ${tried} not named`);
    for (const el of notNamed) console.log(`#   not named: ${el}`);
    failed++;
  } else {
    console.log(`ok - ${name}: each of ${tried} elements removed alone from a copy of the specs is named ` +
      `(${surface.length - tried} headers of security schemes or excused, array items and map values not removable alone)`);
  }
}

if (failed) {
  console.log(`# ${failed} case(s) failed`);
  process.exit(1);
}
