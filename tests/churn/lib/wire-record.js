// SPDX-License-Identifier: Apache-2.0
// Records the wire as a rig's doubles saw it, for the spec check of the
// adapter's surface (surface.js reads it): with the rig's variable
// (E2B_WIRE_RECORD, DAYTONA_WIRE_RECORD) set to a file, every exchange the
// doubles serve is appended to it as one JSON line: which service (api,
// envd, toolbox), method, path with query, the request's header names,
// status, the content types, and both bodies (base64) when they are JSON
// or Connect JSON. Bodies of other types (file contents) are not kept.
// Header values are never written: they hold the keys and tokens.
// Shared by the rigs, which import it from here (the recording tests
// install tests/churn/ in the build tree before they start a rig).
import fs from "node:fs";

const BODY_LIMIT = 1024 * 1024;
const JSON_TYPE = /^application\/(connect\+)?json/;

function collector() {
  const parts = [];
  let size = 0;
  return {
    add(chunk, enc) {
      if (chunk === undefined || chunk === null || size > BODY_LIMIT) return;
      const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, typeof enc === "string" ? enc : "utf8");
      parts.push(b);
      size += b.length;
    },
    text() { return size > BODY_LIMIT ? null : Buffer.concat(parts).toString("base64"); },
  };
}

export class WireRecorder {
  constructor(file) {
    this.file = file;
  }

  // Taps req and res before anyone reads or writes them; returns the entry,
  // whose `skip` a caller sets for an exchange the provider never served
  // (an injected fault, a proxy's refusal).
  tap(service, req, res) {
    const entry = { skip: false };
    const reqBody = collector();
    const resBody = collector();
    // The HTTP parser hands the body to req.push: seen here whoever reads it.
    const push = req.push;
    req.push = function (chunk, enc) {
      reqBody.add(chunk, enc);
      return push.call(this, chunk, enc);
    };
    const write = res.write;
    res.write = function (chunk, enc, cb) {
      resBody.add(chunk, enc);
      return write.call(this, chunk, enc, cb);
    };
    // writeHead(status, headers) does not keep its headers for getHeader.
    let resType = "";
    const writeHead = res.writeHead;
    res.writeHead = function (status, ...rest) {
      const h = rest.find((x) => x && typeof x === "object");
      if (h) for (const [k, v] of Object.entries(h)) if (k.toLowerCase() === "content-type") resType = String(v);
      return writeHead.call(this, status, ...rest);
    };
    const end = res.end;
    res.end = function (chunk, enc, cb) {
      if (typeof chunk !== "function") resBody.add(chunk, enc);
      return end.call(this, chunk, enc, cb);
    };
    res.on("finish", () => {
      if (entry.skip) return;
      const reqType = req.headers["content-type"] || "";
      if (!resType) resType = String(res.getHeader("content-type") || "");
      const line = {
        service,
        method: req.method,
        path: req.url,
        headers: Object.keys(req.headers),
        status: res.statusCode,
        reqType,
        resType,
        reqBody: JSON_TYPE.test(reqType) ? reqBody.text() : null,
        resBody: JSON_TYPE.test(resType) ? resBody.text() : null,
      };
      fs.appendFileSync(this.file, JSON.stringify(line) + "\n");
    });
    return entry;
  }

  // A WebSocket upgrade passed on to a double: recorded as it was asked
  // (operation, query, headers), with no bodies, as status 101.
  upgrade(service, req) {
    const line = {
      service, method: req.method, path: req.url, headers: Object.keys(req.headers), status: 101,
      reqType: "", resType: "", reqBody: null, resBody: null,
    };
    fs.appendFileSync(this.file, JSON.stringify(line) + "\n");
  }
}

// The recorder when the environment variable `name` names a file, else null.
export function recorderFromEnv(name) {
  const file = process.env[name];
  return file ? new WireRecorder(file) : null;
}
