// SPDX-License-Identifier: Apache-2.0
// An adapter's wire surface from a recording of its traffic (the doubles'
// JSON lines, see wire-record.js): one line per element it uses, sorted, so
// a reviewer reads what the adapter depends on and a diff shows what a
// change added:
//   SVC METHOD TEMPLATE                       an HTTP operation
//   SVC METHOD TEMPLATE query NAME            a query parameter sent
//   SVC METHOD TEMPLATE header NAME           a header sent (not HTTP's own)
//   SVC METHOD TEMPLATE request PATH TYPE     a request body field, its JSON type
//   SVC METHOD TEMPLATE response STATUS PATH TYPE   a response field the adapter reads
//   SVC rpc PKG.SERVICE/METHOD [header|request|response ...]   the same for Connect
// PATH is dotted; "[]" marks array items, "*" a map's values. A response
// field counts as read when its name is a string literal of the adapter's
// sources (the recording shows what was served, the sources what is looked
// up); in an error answer (4xx, 5xx) of a provider that lists errorReads,
// only those count (an adapter that reads nothing of an error but its
// message does not read its other fields, whatever its literals).
import fs from "node:fs";
import path from "node:path";
import { PROTOCOL_HEADERS } from "./providers.js";

export function jsonType(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v; // string, boolean, object
}

// Every field path of a JSON value with its type.
export function fields(v, maps, prefix = [], out = new Map()) {
  if (Array.isArray(v)) {
    for (const item of v) {
      const p = [...prefix, "[]"];
      out.set(p.join("."), jsonType(item));
      fields(item, maps, p, out);
    }
  } else if (v && typeof v === "object") {
    const isMap = prefix.length && maps.includes(prefix[prefix.length - 1]);
    for (const [k, x] of Object.entries(v)) {
      const p = [...prefix, isMap ? "*" : k];
      out.set(p.join("."), jsonType(x));
      fields(x, maps, p, out);
    }
  }
  return out;
}

// The messages of a Connect body: one JSON value (unary), or the 5-byte
// framed messages of a stream, without the end-of-stream frame (flag 0x02),
// which is the protocol's, not the service's.
export function connectMessages(buf, framed) {
  if (!framed) return buf.length ? [JSON.parse(buf.toString("utf8"))] : [];
  const out = [];
  for (let at = 0; at + 5 <= buf.length;) {
    const flags = buf[at];
    const len = buf.readUInt32BE(at + 1);
    const body = buf.subarray(at + 5, at + 5 + len);
    at += 5 + len;
    if (!(flags & 0x02)) out.push(JSON.parse(body.toString("utf8")));
  }
  return out;
}

// The string literals of the adapter's C sources that could name a field.
export function sourceLiterals(files) {
  const names = new Set();
  for (const f of files) {
    const text = fs.readFileSync(f, "utf8");
    for (const m of text.matchAll(/"([A-Za-z_][A-Za-z0-9_]*)"/g)) names.add(m[1]);
  }
  return names;
}

// A recorded path's template: an id segment the traffic revealed (any
// value of an *ID field in a body) or one the spec's templates put a
// parameter at becomes {NAME}.
export function templateOf(pathname, ids, specTemplates) {
  const segs = pathname.split("/");
  if (specTemplates.includes(pathname)) return pathname;
  const params = (t) => (t.match(/\{/g) || []).length;
  for (const t of [...specTemplates].sort((a, b) => params(a) - params(b))) {
    const ts = t.split("/");
    if (ts.length !== segs.length) continue;
    if (ts.every((x, i) => x === segs[i] || (/^\{.*\}$/.test(x) && segs[i] !== ""))) return t;
  }
  return segs.map((s) => (ids.has(s) ? `{${ids.get(s)}}` : s)).join("/");
}

function collectIds(v, ids) {
  if (Array.isArray(v)) v.forEach((x) => collectIds(x, ids));
  else if (v && typeof v === "object")
    for (const [k, x] of Object.entries(v)) {
      if (/ID$|Id$/.test(k) && typeof x === "string" && x) ids.set(x, k);
      collectIds(x, ids);
    }
}

function decode(b64) {
  return b64 ? Buffer.from(b64, "base64") : Buffer.alloc(0);
}

// lines: the parsed recording; provider: its PROVIDERS entry;
// literals: sourceLiterals(); templatesOf(svc): the spec's path templates.
export function buildSurface(lines, provider, literals, templatesOf) {
  const ids = new Map();
  for (const l of lines)
    for (const [b, type] of [[l.reqBody, l.reqType], [l.resBody, l.resType]]) {
      if (!b) continue;
      const buf = decode(b);
      try {
        connectMessages(buf, /connect\+json/.test(type)).forEach((m) => collectIds(m, ids));
      } catch { /* not JSON after all: no ids in it */ }
    }
  const out = new Set();
  for (const l of lines) {
    const url = new URL(l.path, "http://x");
    const rpc = /^\/([a-z0-9_.]+\.[A-Za-z0-9_]+)\/([A-Za-z0-9_]+)$/.exec(url.pathname);
    const op = rpc ? `${l.service} rpc ${rpc[1]}/${rpc[2]}`
      : `${l.service} ${l.method} ${templateOf(url.pathname, ids, templatesOf(l.service))}`;
    out.add(op);
    for (const q of new Set(url.searchParams.keys())) out.add(`${op} query ${q}`);
    for (const h of l.headers) if (!PROTOCOL_HEADERS.has(h)) out.add(`${op} header ${h}`);
    const framed = (t) => /connect\+json/.test(t);
    if (l.reqBody) {
      for (const m of connectMessages(decode(l.reqBody), framed(l.reqType)))
        for (const [p, t] of fields(m, provider.maps)) out.add(`${op} request ${p} ${t}`);
    }
    // A Connect error is the protocol's {code,message}, not the service's.
    if (l.resBody && !(rpc && l.status !== 200)) {
      const msgs = connectMessages(decode(l.resBody), framed(l.resType));
      const read = l.status >= 400 && provider.errorReads ? new Set(provider.errorReads) : literals;
      for (const m of msgs)
        for (const [p, t] of fields(m, provider.maps)) {
          if (!read.has(lastName(p))) continue;
          out.add(rpc ? `${op} response ${p} ${t}` : `${op} response ${l.status} ${p} ${t}`);
        }
    }
  }
  return [...out].sort();
}

// The name that must be looked up to read a path: its last segment that is
// a name (not "[]" or "*").
function lastName(p) {
  const segs = p.split(".").filter((s) => s !== "[]" && s !== "*");
  return segs.length ? segs[segs.length - 1] : "";
}

export function readRecording(file) {
  return fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map((x) => JSON.parse(x));
}

export function expandSources(top, globs) {
  const out = [];
  for (const g of globs) {
    const dir = path.join(top, path.dirname(g));
    const re = new RegExp("^" + path.basename(g).replace(/\./g, "\\.").replace(/\*/g, ".*") + "$");
    for (const f of fs.readdirSync(dir).sort()) if (re.test(f)) out.push(path.join(dir, f));
  }
  return out;
}
