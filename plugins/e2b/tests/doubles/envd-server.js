// SPDX-License-Identifier: Apache-2.0
// The envd double: one HTTP/1.1 server for every sandbox, as E2B's proxy
// puts them behind one domain. It serves envd's REST (/health, /files) and
// its Connect services generated from the stored protos, strictly: the
// Connect-Protocol-Version header is required and unknown JSON fields are
// rejected. The sandbox is named by the E2b-Sandbox-Id header the SDK sends,
// or by a host of the form 49983-<id>.<domain>; its X-Access-Token is checked.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { Code, ConnectError } from "@connectrpc/connect";
import { Process } from "./gen/process_pb.js";
import { Filesystem } from "./gen/filesystem_pb.js";
import { processService } from "./process-service.js";
import { filesystemService } from "./filesystem-service.js";
import { resolvePath } from "./paths.js";
import { requestState, requestStorage } from "./request-state.js";
import { timeServed } from "./served.js";

const ENVD_PORT = 49983;

function jsonError(res, code, message, extra = {}) {
  const body = JSON.stringify({ code, message, ...extra });
  res.writeHead(code, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

export function sandboxIdOf(req) {
  const hdr = req.headers["e2b-sandbox-id"];
  if (hdr) return hdr;
  const m = /^(\d+)-([^.]+)\./.exec(req.headers.host || "");
  return m && Number(m[1]) === ENVD_PORT ? m[2] : null;
}

// The sandbox of a Connect call, set by the HTTP layer below.
function sandboxOf() {
  const st = requestState();
  if (!st?.sb) throw new ConnectError("no sandbox", Code.Unavailable);
  return st.sb;
}

const connect = connectNodeAdapter({
  routes(router) {
    router.service(Process, processService(sandboxOf));
    router.service(Filesystem, filesystemService(sandboxOf));
  },
  requireConnectProtocolHeader: true,
  jsonOptions: { ignoreUnknownFields: false },
});

// envd's auth middleware: everything needs the token but /health; /files
// take the token or a signature (the double knows no signatures).
function authorised(sb, req, pathname) {
  if (!sb.accessToken) return true;
  if (req.method === "GET" && pathname === "/health") return true;
  return req.headers["x-access-token"] === sb.accessToken;
}

async function getFile(sb, req, res, url) {
  let p;
  try {
    p = resolvePath(url.searchParams.get("path") || "");
  } catch (e) {
    return jsonError(res, 400, e.message);
  }
  const host = sb.hostPath(p);
  let st;
  try {
    st = fs.statSync(host);
  } catch (e) {
    if (e.code === "ENOENT") return jsonError(res, 404, `path '${p}' does not exist`);
    return jsonError(res, 500, `error checking if path exists '${p}': ${e.message}`);
  }
  if (st.isDirectory()) return jsonError(res, 400, `path '${p}' is a directory`);
  res.writeHead(200, {
    "Content-Type": "application/octet-stream",
    "Content-Length": st.size,
    "Content-Disposition": `inline; filename="${path.posix.basename(p)}"`,
    "Vary": "Accept-Encoding",
  });
  await pipeline(fs.createReadStream(host), res);
}

// Writes one upload to `p`, creating its parents (envd: EnsureDirs).
async function writeTo(sb, p, body) {
  fs.mkdirSync(sb.hostPath(path.posix.dirname(p)), { recursive: true, mode: 0o755 });
  const host = sb.hostPath(p);
  if (fs.existsSync(host) && fs.statSync(host).isDirectory())
    throw Object.assign(new Error(`path '${p}' is a directory`), { status: 400 });
  await pipeline(body, fs.createWriteStream(host, { mode: 0o666 }));
  return { path: p, name: path.posix.basename(p), type: "file" };
}

async function postFile(sb, req, res, url) {
  const qpath = url.searchParams.get("path");
  const type = req.headers["content-type"] || "";
  const entries = [];
  try {
    if (type.startsWith("application/octet-stream")) {
      if (!qpath) return jsonError(res, 400, "path query parameter is required for raw body upload");
      entries.push(await writeTo(sb, resolvePath(qpath), req));
    } else if (type.startsWith("multipart/form-data")) {
      const parts = [];
      const bb = busboy({ headers: req.headers });
      bb.on("file", (name, stream, info) => {
        if (name !== "file") { stream.resume(); return; }
        const p = resolvePath(qpath ?? info.filename);
        if (entries.some((e) => e.path === p) || parts.some((x) => x.p === p)) {
          stream.resume();
          parts.push({ p, done: Promise.reject(Object.assign(new Error(
            `you cannot upload multiple files to the same path '${p}' in one upload request, only the first specified file was uploaded`), { status: 400 })) });
          return;
        }
        parts.push({ p, done: writeTo(sb, p, stream) });
      });
      await pipeline(req, bb);
      for (const part of parts) entries.push(await part.done);
    } else {
      return jsonError(res, 400, `unsupported content type '${type}'`);
    }
  } catch (e) {
    return jsonError(res, e.status || 500, e.message);
  }
  const body = JSON.stringify(entries);
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

// `sandboxes` maps an id to a Sandbox (with accessToken, readyAt);
// `faults` is the Faults of the rig; `requests` gets every request's
// method, path and headers as they arrived, for the wire tests.
export function createEnvdServer(sandboxes, faults, requests, recorder = null, served = null) {
  return http.createServer(async (req, res) => {
    if (served) timeServed(served, "envd", res);
    const url = new URL(req.url, "http://envd");
    // `proxy502`: E2B's proxy turned it away, envd never saw it (a client
    // may try again: the wire tests count only what envd served).
    const entry = { method: req.method, path: req.url, headers: req.headers };
    requests.push(entry);
    res.on("finish", () => { entry.status = res.statusCode; });
    const taped = recorder ? recorder.tap("envd", req, res) : null;
    const id = sandboxIdOf(req);
    const sb = id ? sandboxes.get(id) : null;
    const turnAway = (why) => {
      entry.proxy502 = true;
      if (taped) taped.skip = true;
      return jsonError(res, 502, why, { sandboxId: id });
    };
    // E2B's proxy answers 502 for a sandbox that is not (or no longer) running.
    if (!sb) return turnAway(`The sandbox ${id} was not found`);
    if (sb.paused) return turnAway(`The sandbox ${id} is paused`);
    if (Date.now() < sb.readyAt) return turnAway(`The sandbox ${id} is not ready yet`);
    if (!authorised(sb, req, url.pathname))
      return jsonError(res, 401, "unauthorized access, please provide a valid access token or method signing if supported");
    sb.sockets.add(req.socket);
    res.on("close", () => sb.sockets.delete(req.socket));
    const state = { sb, req, res, afterEvent: null };
    if (faults.applyEnvd(req, res, state)) {
      if (taped) taped.skip = true;
      return;
    }
    try {
      await requestStorage.run(state, async () => {
        if (url.pathname === "/health" && req.method === "GET") {
          res.writeHead(204);
          res.end();
        } else if (url.pathname === "/files" && req.method === "GET") {
          await getFile(sb, req, res, url);
        } else if (url.pathname === "/files" && req.method === "POST") {
          await postFile(sb, req, res, url);
        } else {
          connect(req, res);
        }
      });
    } catch (e) {
      if (!res.headersSent) jsonError(res, 500, e.message);
      else res.destroy();
    }
  });
}
