// Records the wire as the doubles saw it, for the spec check of the
// adapter's surface (tests/churn/): with E2B_WIRE_RECORD set to a file,
// every exchange the doubles serve is appended to it as one JSON line:
// which service (api, envd), method, path with query, the request's header
// names, status, the content types, and both bodies (base64) when they are
// JSON or Connect JSON. Bodies of other types (file contents) are not kept.
// Header values are never written: they hold the keys and tokens.
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
}

export function recorderFromEnv() {
  const file = process.env.E2B_WIRE_RECORD;
  return file ? new WireRecorder(file) : null;
}
