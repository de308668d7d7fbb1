// SPDX-License-Identifier: Apache-2.0
// An SDK's own wire surface, read from the package npm installed: the
// REST operations its (generated) clients call, and the protobuf
// descriptors it bundles, as a protobufjs root.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { toBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema, file_google_protobuf_timestamp } from "@bufbuild/protobuf/wkt";
import { Protos } from "./proto.js";

const require = createRequire(import.meta.url);
const protobuf = require("protobufjs");
require("protobufjs/ext/descriptor");

// Files under node_modules matching "pkg/dir/*.js" (one * in the last part).
export function sdkFiles(modules, globs) {
  const out = [];
  for (const g of globs) {
    const dir = path.join(modules, path.dirname(g));
    if (!fs.existsSync(dir)) continue;
    const re = new RegExp("^" + path.basename(g).replace(/\./g, "\\.").replace(/\*/g, ".*") + "$");
    for (const f of fs.readdirSync(dir).sort()) if (re.test(f)) out.push(path.join(dir, f));
  }
  return out;
}

// [{method, path}] of every call site found.
export function restOps(text, style) {
  const out = [];
  if (style === "openapi-fetch") {
    for (const m of text.matchAll(/\.(GET|POST|PUT|DELETE|PATCH|HEAD)\(\s*["'`](\/[^"'`]*)["'`]/g))
      out.push({ method: m[1], path: m[2] });
  } else if (style === "openapi-generator") {
    for (const m of text.matchAll(/localVarPath = `([^`]+)`[\s\S]*?method: '([A-Z]+)'/g))
      out.push({ method: m[2], path: m[1] });
  }
  return out;
}

function frame(buf) {
  const len = [];
  for (let l = buf.length; ; l >>>= 7) {
    if (l < 128) { len.push(l); break; }
    len.push((l & 127) | 128);
  }
  return Buffer.concat([Buffer.from([0x0a, ...len]), buf]);
}

// The bundled descriptors (protobuf-es fileDesc("...")) as Protos, or null.
export function sdkProtos(files) {
  const descs = [];
  for (const f of files)
    for (const m of fs.readFileSync(f, "utf8").matchAll(/fileDesc\("([A-Za-z0-9+/=]+)"/g))
      descs.push(Buffer.from(m[1], "base64"));
  if (!descs.length) return null;
  const wkt = Buffer.from(toBinary(FileDescriptorProtoSchema, file_google_protobuf_timestamp.proto));
  const set = Buffer.concat([frame(wkt), ...descs.map(frame)]);
  return Protos.fromRoot(protobuf.Root.fromDescriptor(set));
}

// Every method and message field of a set of protos, one line each:
//   rpc PKG.SERVICE/METHOD
//   field PKG.MESSAGE.NAME TYPE   (TYPE: the proto type, "repeated " or "map " first)
export function protoElements(protos) {
  const out = new Set();
  const walk = (ns) => {
    for (const x of ns.nestedArray || []) {
      if (x instanceof protobuf.Service) for (const m of Object.keys(x.methods)) out.add(`rpc ${x.fullName.slice(1)}/${m}`);
      if (x instanceof protobuf.Type) {
        if (x.fullName.startsWith(".google.protobuf.")) continue;
        for (const f of Object.values(x.fields))
          {
          f.resolve();
          const t = f.resolvedType ? f.resolvedType.fullName.slice(1) : f.type;
          out.add(`field ${x.fullName.slice(1)}.${f.name} ${f.map ? "map " : f.repeated ? "repeated " : ""}${t}`);
        }
      }
      if (x.nestedArray) walk(x);
    }
  };
  walk(protos.root);
  return out;
}
