// SPDX-License-Identifier: Apache-2.0
// Protobuf files as the spec check asks them: whether a Connect service
// and method exist, and whether a field path of a JSON type is in their
// messages (proto3 JSON mapping: lowerCamelCase names, 64-bit integers as
// strings, bytes as base64 strings, enums as names, well-known types).
import fs from "node:fs";
import protobuf from "protobufjs";

const INT32 = new Set(["int32", "sint32", "sfixed32", "uint32", "fixed32"]);
const INT64 = new Set(["int64", "sint64", "sfixed64", "uint64", "fixed64"]);
const WKT_JSON = {
  ".google.protobuf.Timestamp": ["string"],
  ".google.protobuf.Duration": ["string"],
  ".google.protobuf.Struct": ["object"],
  ".google.protobuf.Value": null, // any
  ".google.protobuf.Empty": ["object"],
};

export function jsonName(name) {
  return name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
}

export class Protos {
  static fromRoot(root) {
    const p = Object.create(Protos.prototype);
    p.files = [];
    p.root = root;
    root.resolveAll();
    return p;
  }

  constructor(files) {
    this.files = files;
    this.root = new protobuf.Root();
    for (const f of files) {
      const parsed = protobuf.parse(fs.readFileSync(f, "utf8"), this.root, { keepCase: true });
      for (const imp of parsed.imports || []) {
        const common = protobuf.common.get(imp);
        if (common) this.root.addJSON(common.nested);
      }
    }
    this.root.resolveAll();
  }

  method(service, name) {
    let svc;
    try {
      svc = this.root.lookupService(service);
    } catch {
      return null;
    }
    return svc.methods[name] || null;
  }

  // The message and the field a path (as for reach) ends at, or null.
  fieldAt(type, path) {
    let msg = type;
    let found = null;
    for (const seg of path) {
      if (seg === "[]" || seg === "*") continue;
      if (!msg) return null;
      const field = Object.values(msg.fields).find((f) => jsonName(f.name) === seg || f.name === seg);
      if (!field) return null;
      field.resolve();
      found = { msg, field };
      msg = field.resolvedType instanceof protobuf.Type ? field.resolvedType : null;
    }
    return found;
  }

  // The JSON types a field path (segments: JSON names, "[]", "*") may have
  // in message type `type`; null when the path is not in it; [] for any.
  reach(type, path) {
    let cur = { msg: type, repeated: false, map: false, scalar: null };
    for (const seg of path) {
      if (seg === "[]") {
        if (!cur.repeated) return null;
        cur = { ...cur, repeated: false };
        continue;
      }
      if (seg === "*") {
        if (!cur.map) return null;
        cur = { ...cur, map: false };
        continue;
      }
      if (cur.repeated || cur.map || !cur.msg || WKT_JSON[cur.msg.fullName] !== undefined) return null;
      const field = Object.values(cur.msg.fields).find((f) => jsonName(f.name) === seg || f.name === seg);
      if (!field) return null;
      field.resolve();
      const rt = field.resolvedType;
      cur = {
        msg: rt instanceof protobuf.Type ? rt : null,
        enumType: rt instanceof protobuf.Enum,
        scalar: rt ? null : field.type,
        repeated: field.repeated,
        map: field.map,
      };
    }
    if (cur.repeated) return ["array"];
    if (cur.map) return ["object"];
    if (cur.enumType) return ["string", "integer"];
    if (cur.msg) {
      const w = WKT_JSON[cur.msg.fullName];
      return w === undefined ? ["object"] : w ?? [];
    }
    const t = cur.scalar;
    if (t === "string" || t === "bytes") return ["string"];
    if (t === "bool") return ["boolean"];
    if (INT32.has(t)) return ["integer"];
    if (INT64.has(t)) return ["string", "integer"];
    if (t === "double" || t === "float") return ["number", "integer"];
    return [];
  }
}
