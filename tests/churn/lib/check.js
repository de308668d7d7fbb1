// SPDX-License-Identifier: Apache-2.0
// The spec check: every element of an adapter's recorded surface must be
// in the specs it names; each one the spec lacks, or types differently, is
// a finding that names the element.
import { OpenApi, typeFits } from "./openapi.js";
import { Protos } from "./proto.js";
import { PROTOCOL_HEADERS } from "./providers.js";

// specs: { SVC: { openapi: OpenApi|null, protos: Protos|null } }
export function checkSurface(lines, specs, provider) {
  const findings = [];
  const miss = (el, why) => findings.push(`${el}: ${why}`);
  for (const el of lines) {
    const w = el.split(" ");
    const spec = specs[w[0]];
    if (!spec) { miss(el, `no spec for service ${w[0]}`); continue; }
    if (w[1] === "rpc") checkRpc(el, w, spec, provider, miss);
    else checkRest(el, w, spec, provider, miss);
  }
  return findings;
}

// offSpecHeaders names a header alone (any service) or as "SVC NAME".
function checkHeader(el, name, has, provider, miss) {
  const svc = el.slice(0, el.indexOf(" "));
  const off = provider.offSpecHeaders[name] || provider.offSpecHeaders[`${svc} ${name}`];
  if (PROTOCOL_HEADERS.has(name) || off || has(name)) return;
  miss(el, "the spec declares no such header");
}

function checkRest(el, w, spec, provider, miss) {
  const [, method, template, kind, ...rest] = w;
  const api = spec.openapi;
  const o = api && api.op(method, template);
  if (!o) return miss(el, `the spec has no operation ${method} ${template}`);
  if (!kind) return;
  if (kind === "query") {
    if (!api.params(o, "query").includes(rest[0].toLowerCase())) miss(el, "the spec declares no such query parameter");
  } else if (kind === "header") {
    checkHeader(el, rest[0], (n) => api.hasHeader(o, n), provider, miss);
  } else if (kind === "request") {
    const schema = api.requestSchema(o);
    if (!schema) return miss(el, "the spec gives the operation no JSON request body");
    fieldFits(el, api.reach(schema, rest[0].split(".")), rest[1], miss);
  } else if (kind === "response") {
    const schema = api.responseSchema(o, rest[0]);
    if (schema === undefined) return miss(el, `the spec has no response ${rest[0]} for the operation`);
    if (schema === null) return miss(el, `the spec's response ${rest[0]} has no JSON body`);
    fieldFits(el, api.reach(schema, rest[1].split(".")), rest[2], miss);
  }
}

function fieldFits(el, schemas, type, miss) {
  if (!schemas.length) return miss(el, "the spec lacks the field");
  if (!schemas.some((s) => typeFits(s, type))) {
    const t = [...new Set(schemas.map((s) => JSON.stringify(s.type ?? "any")))].join(" or ");
    miss(el, `the spec types it ${t}, the wire carries ${type}`);
  }
}

function checkRpc(el, w, spec, provider, miss) {
  const [, , sm, kind, ...rest] = w;
  const [service, name] = sm.split("/");
  const m = spec.protos && spec.protos.method(service, name);
  if (!m) return miss(el, `the protos have no method ${service}/${name}`);
  if (!kind) return;
  if (kind === "header") {
    const api = spec.openapi;
    const has = (n) => api && Object.values(api.doc.components?.securitySchemes || {})
      .some((s) => s.in === "header" && s.name.toLowerCase() === n);
    return checkHeader(el, rest[0], has, provider, miss);
  }
  m.resolve();
  const type = kind === "request" ? m.resolvedRequestType : m.resolvedResponseType;
  const types = spec.protos.reach(type, rest[0].split("."));
  if (types === null) return miss(el, `${type.name} lacks the field`);
  if (types.length && !types.includes(rest[1]) && !(rest[1] === "integer" && types.includes("number")))
    miss(el, `${type.name} types it ${types.join(" or ")}, the wire carries ${rest[1]}`);
}

export function loadSpecs(top, provider, override = {}) {
  const specs = {};
  for (const [svc, s] of Object.entries(provider.specs)) {
    const oa = override[`${svc}.openapi`] ?? (s.openapi && `${top}/${s.openapi}`);
    const pr = override[`${svc}.protos`] ?? (s.protos && s.protos.map((f) => `${top}/${f}`));
    specs[svc] = {
      openapi: oa ? new OpenApi(oa, null, s.prefix) : null,
      protos: pr ? new Protos(pr) : null,
    };
  }
  return specs;
}
