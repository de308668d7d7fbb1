// SPDX-License-Identifier: Apache-2.0
// An OpenAPI document (YAML or JSON) as the spec check asks it: which
// operation a method and path template name, and whether a query
// parameter, a header, a request or a response field of a JSON type is in it.
import fs from "node:fs";
import YAML from "yaml";

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

export function normalise(template) {
  return template.replace(/\{[^}]*\}/g, "{}");
}

// Path templates as a client calls them: `prefix` before each of the
// document's (Daytona's toolbox is reached as {toolboxProxyUrl}/{sandboxId}/...,
// while its spec describes the daemon behind the proxy).
export function prefixed(prefix, template) {
  return prefix ? prefix + template : template;
}

export class OpenApi {
  // doc: an already parsed document (e.g. a structuredClone to mutate);
  // prefix: put before every path of the document (see prefixed()).
  constructor(file, doc = null, prefix = "") {
    this.file = file;
    this.doc = doc ?? (YAML.parse(fs.readFileSync(file, "utf8"), { maxAliasCount: -1 }) || {});
    if (prefix)
      this.doc.paths = Object.fromEntries(Object.entries(this.doc.paths || {}).map(([p, item]) => [prefixed(prefix, p), item]));
    this.paths = new Map();
    for (const [p, item] of Object.entries(this.doc.paths || {})) this.paths.set(normalise(p), { p, item });
  }

  // The path templates of the document, for turning a recorded path into one.
  templates() {
    return [...this.paths.values()].map((x) => x.p);
  }

  ref(x) {
    let seen = 0;
    while (x && x.$ref && seen++ < 32) {
      const parts = x.$ref.replace(/^#\//, "").split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
      x = parts.reduce((o, k) => (o ? o[k] : undefined), this.doc);
    }
    return x;
  }

  op(method, template) {
    const hit = this.paths.get(normalise(template));
    if (!hit) return null;
    const op = hit.item[method.toLowerCase()];
    return op ? { op, item: hit.item } : null;
  }

  params(o, where) {
    const all = [...(o.item.parameters || []), ...(o.op.parameters || [])].map((p) => this.ref(p));
    return all.filter((p) => p && p.in === where).map((p) => p.name.toLowerCase());
  }

  hasHeader(o, name) {
    if (this.params(o, "header").includes(name)) return true;
    const schemes = this.doc.components?.securitySchemes || {};
    return Object.values(schemes).some((s0) => {
      const s = this.ref(s0);
      if (s.type === "apiKey" && s.in === "header") return s.name.toLowerCase() === name;
      return s.type === "http" && name === "authorization";
    });
  }

  // The JSON schema of the request body, or of the response of `status`.
  requestSchema(o) {
    const body = this.ref(o.op.requestBody);
    return body ? jsonSchemaOf(this.ref(body).content) : undefined;
  }

  responseSchema(o, status) {
    const rs = o.op.responses || {};
    const r = this.ref(rs[String(status)] ?? rs[`${String(status)[0]}XX`] ?? rs.default);
    return r ? jsonSchemaOf(r.content) ?? null : undefined;
  }

  // The schemas a dotted field path reaches (segments: names, "[]" for
  // array items, "*" for a map's values); [] when the spec lacks it.
  reach(schema, path) {
    let cur = this.alternatives(schema);
    for (const seg of path) {
      const next = [];
      for (const s of cur) {
        if (seg === "[]") {
          if (s.items) next.push(...this.alternatives(s.items));
        } else if (seg === "*") {
          if (s.additionalProperties && typeof s.additionalProperties === "object")
            next.push(...this.alternatives(s.additionalProperties));
        } else if (s.properties && s.properties[seg]) {
          next.push(...this.alternatives(s.properties[seg]));
        } else if (s.additionalProperties && typeof s.additionalProperties === "object") {
          next.push(...this.alternatives(s.additionalProperties));
        }
      }
      cur = next;
    }
    return cur;
  }

  // A schema as the list of the object shapes it may take (allOf merged,
  // oneOf/anyOf expanded).
  alternatives(s0, depth = 0) {
    const s = this.ref(s0);
    if (!s || typeof s !== "object" || depth > 16) return [];
    if (s.allOf) {
      const merged = { ...s, allOf: undefined, properties: { ...(s.properties || {}) } };
      for (const part of s.allOf) for (const a of this.alternatives(part, depth + 1)) {
        Object.assign(merged.properties, a.properties || {});
        for (const k of ["type", "items", "additionalProperties", "nullable", "format", "enum"])
          if (a[k] !== undefined && merged[k] === undefined) merged[k] = a[k];
      }
      return [merged];
    }
    const alts = s.oneOf || s.anyOf;
    if (alts) return alts.flatMap((a) => this.alternatives(a, depth + 1)).concat(s.properties ? [s] : []);
    return [s];
  }
}

// The schema of a JSON body: its JSON media type's, else that of a range
// that admits JSON (Daytona's toolbox spec declares its errors as */*).
function jsonSchemaOf(content) {
  if (!content) return undefined;
  const keys = Object.keys(content);
  const key = keys.find((k) => /json/.test(k)) ?? keys.find((k) => k === "*/*" || k === "application/*");
  return key ? content[key].schema : undefined;
}

// Whether a JSON value's type (as recorded) is one the schema allows.
export function typeFits(schema, type) {
  let t = schema.type;
  if (t === undefined) {
    if (schema.properties || schema.additionalProperties) t = "object";
    else if (schema.items) t = "array";
    else return true; // a free-form schema: any value
  }
  const types = Array.isArray(t) ? t : [t];
  if (schema.nullable) types.push("null");
  if (type === "integer") return types.includes("integer") || types.includes("number");
  return types.includes(type);
}
