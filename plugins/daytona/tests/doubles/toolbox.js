// SPDX-License-Identifier: Apache-2.0
// The toolbox double: Daytona's in-sandbox daemon (its Toolbox API,
// spec/toolbox-openapi.yaml) for every sandbox, each path under
// /{sandboxId} as the proxy forwards it. It sits behind Prism, loaded with
// a copy of the toolbox spec whose paths carry that prefix (derived by
// toolbox-spec.js at test time). The daemon's rules it follows are in
// README.md; its errors are the daemon's ErrorResponse with a code of the
// spec's DaemonErrorCode.
//
// The followed logs (GET .../logs?follow=true with a WebSocket upgrade)
// come straight from the front door, not through Prism.
import http from "node:http";
import fs from "node:fs";
import { WebSocketServer } from "ws";
import * as files from "./files.js";
import { HOME } from "./paths.js";
import { HttpError, Session, demux, stripMarkers } from "./sessions.js";

function send(res, status, body, type = "application/json") {
  if (body === undefined) {
    res.writeHead(status);
    return res.end();
  }
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

// The daemon's ErrorResponse, without its `code`: the stored spec types
// `code` as an object (allOf DaemonErrorCode, type object), which no code
// the daemon sends (a string of that enum) can satisfy; see README.md.
// The spec declares the download errors with the success's media type
// (the daemon sends JSON); the double labels them as the spec says.
const ERROR_TYPES = { "/files/download": "application/octet-stream", "/files/bulk-download": "multipart/form-data" };
function daemonError(res, req, e, rest = "") {
  const status = e.status || 500;
  const body = JSON.stringify({
    statusCode: status, message: e.message,
    timestamp: new Date().toISOString(), path: req.url, method: req.method,
  });
  send(res, status, body, ERROR_TYPES[rest] || "application/json; charset=utf-8");
}

async function readJson(req) {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  if (!raw) return undefined;
  try {
    return JSON.parse(raw);
  } catch (e) {
    throw new HttpError(400, `invalid request body: ${e.message}`, "INVALID_REQUEST_BODY");
  }
}

// "1.2.3" < "1.10.0"; pre-release and build suffixes are ignored.
function versionBelow(v, than) {
  const a = v.replace(/^v/, "").split(/[-+]/)[0].split(".").map(Number);
  const b = than.split(".").map(Number);
  for (let i = 0; i < 3; i++) if ((a[i] || 0) !== b[i]) return (a[i] || 0) < b[i];
  return false;
}

// The daemon's output formats (apps/daemon/pkg/session/common.go): an SDK
// older than 0.27 or a client that names no SDK version and does not ask
// for split output gets the combined output, markers dropped; an SDK from
// 0.167.0 on gets JSON {output, stdout, stderr} split by the daemon; others
// get the raw log with its markers (a WebSocket too: combined or raw).
function outputMode(req) {
  const v = req.headers["x-daytona-sdk-version"] || "";
  const dev = v.includes("dev");
  const combined = (v && !dev && versionBelow(v, "0.27.0")) ||
    (!v && req.headers["x-daytona-split-output"] !== "true");
  const skipDemux = !v ? true : dev ? false : versionBelow(v, "0.167.0");
  return { combined, split: !combined && !skipDemux };
}

// One sandbox's sessions live on its Sandbox object.
function sessionsOf(sb) {
  if (!sb.sessionMap) sb.sessionMap = new Map();
  return sb.sessionMap;
}

// Whether input to the command sessionId/cmdId of sandbox sb can no longer
// reach a reader (see Session.over); an unknown session counts as over.
export function commandOver(sb, sessionId, cmdId) {
  const s = sessionsOf(sb).get(sessionId);
  return !s || s.over(cmdId);
}

function sessionOf(sb, id) {
  const s = sessionsOf(sb).get(id);
  if (!s || s.deleted) throw new HttpError(404, "session not found", "NOT_FOUND");
  return s;
}

// POST /process/execute: the command piped to a shell, stdout and stderr
// merged, the timeout (seconds, only if > 0) killing its process group.
async function execute(sb, req, res) {
  const body = await readJson(req);
  if (!body || typeof body.command !== "string" || !body.command.trim())
    throw new HttpError(400, "command cannot be empty or whitespace-only", "BAD_REQUEST");
  const cwd = body.cwd ?? HOME;
  if (!fs.existsSync(sb.hostPath(cwd)))
    return send(res, 200, { exitCode: -1, result: `chdir ${cwd}: no such file or directory` });
  const child = sb.spawn(["/bin/bash"], { cwd, env: body.envs ?? {}, stdin: true, group: true });
  child.stdin.on("error", () => { /* exited before reading */ });
  child.stdin.end(body.command);
  const out = [];
  child.stdout.on("data", (d) => out.push(d));
  child.stderr.on("data", (d) => out.push(d));
  let timedOut = false;
  const timer = body.timeout > 0 ? setTimeout(() => {
    timedOut = true;
    try { process.kill(-child.pid, "SIGKILL"); } catch { /* gone */ }
  }, body.timeout * 1000) : null;
  const [code, signal] = await new Promise((r) => child.on("close", (c, s) => r([c, s])));
  clearTimeout(timer);
  if (timedOut) throw new HttpError(408, "command execution timeout", "REQUEST_TIMEOUT");
  send(res, 200, { exitCode: signal ? -1 : code, result: Buffer.concat(out).toString() });
}

async function sessionRoute(sb, req, res, rest) {
  const sessions = sessionsOf(sb);
  let m;
  if (rest === "/process/session" && req.method === "POST") {
    const body = await readJson(req);
    if (!body?.sessionId) throw new HttpError(400, "invalid request body: sessionId is required", "INVALID_REQUEST_BODY");
    if (sessions.has(body.sessionId) && !sessions.get(body.sessionId).deleted)
      throw new HttpError(409, "session already exists", "CONFLICT");
    sessions.set(body.sessionId, new Session(sb, body.sessionId));
    return send(res, 201);
  }
  if (rest === "/process/session" && req.method === "GET")
    return send(res, 200, [...sessions.values()].filter((s) => !s.deleted).map((s) => ({
      sessionId: s.id, commands: [...s.commands.keys()].map((c) => s.record(s.get(c))) })));
  if ((m = /^\/process\/session\/([^/]+)$/.exec(rest))) {
    const s = sessionOf(sb, decodeURIComponent(m[1]));
    if (req.method === "GET")
      return send(res, 200, { sessionId: s.id, commands: [...s.commands.keys()].map((c) => s.record(s.get(c))) });
    if (req.method === "DELETE") {
      await s.delete();
      sessions.delete(s.id);
      return send(res, 204);
    }
  }
  if ((m = /^\/process\/session\/([^/]+)\/exec$/.exec(rest)) && req.method === "POST") {
    const s = sessionOf(sb, decodeURIComponent(m[1]));
    const body = await readJson(req);
    if (!body || typeof body.command !== "string" || !body.command.trim())
      throw new HttpError(400, "command cannot be empty", "BAD_REQUEST");
    const async = !!(body.runAsync || body.async);
    const cmd = await s.execute(body.command, async, body.suppressInputEcho);
    if (async) return send(res, 202, { cmdId: cmd.id });
    const log = s.log(cmd);
    const mode = outputMode(req);
    if (mode.combined) return send(res, 200, { cmdId: cmd.id, output: stripMarkers(log).toString(), exitCode: cmd.exitCode });
    const out = { cmdId: cmd.id, output: log.toString(), exitCode: cmd.exitCode };
    if (mode.split) {
      const { stdout, stderr } = demux(log);
      out.stdout = stdout.toString();
      out.stderr = stderr.toString();
    }
    return send(res, 200, out);
  }
  if ((m = /^\/process\/session\/([^/]+)\/command\/([^/]+)(\/logs|\/input)?$/.exec(rest))) {
    const s = sessionOf(sb, decodeURIComponent(m[1]));
    const cmdId = decodeURIComponent(m[2]);
    if (!m[3] && req.method === "GET") return send(res, 200, s.record(s.get(cmdId)));
    if (m[3] === "/input" && req.method === "POST") {
      const body = await readJson(req);
      if (typeof body?.data !== "string") throw new HttpError(400, "invalid request body: data is required", "INVALID_REQUEST_BODY");
      await s.input(cmdId, body.data);
      return send(res, 204);
    }
    if (m[3] === "/logs" && req.method === "GET") {
      const log = s.log(s.get(cmdId));
      const mode = outputMode(req);
      if (mode.split) {
        const { stdout, stderr } = demux(log);
        return send(res, 200, { output: log.toString(), stdout: stdout.toString(), stderr: stderr.toString() });
      }
      return send(res, 200, (mode.combined ? stripMarkers(log) : log).toString(), "text/plain; charset=utf-8");
    }
  }
  return false;
}

async function fileRoute(sb, req, res, rest, url) {
  if (rest === "/files" && req.method === "GET") return send(res, 200, files.listFiles(sb, url));
  if (rest === "/files" && req.method === "DELETE") {
    files.deleteFile(sb, url);
    return send(res, 204);
  }
  if (rest === "/files/folder" && req.method === "POST") {
    files.createFolder(sb, url);
    req.resume();
    return send(res, 201);
  }
  if (rest === "/files/permissions" && req.method === "POST") {
    files.setPermissions(sb, url);
    req.resume();
    return send(res, 200);
  }
  if (rest === "/files/info" && req.method === "GET") return send(res, 200, files.getInfo(sb, url));
  if (rest === "/files/download" && req.method === "GET") return files.download(sb, url, res);
  if (rest === "/files/upload-v2" && req.method === "POST") return send(res, 200, await files.uploadV2(sb, url, req));
  if (rest === "/files/bulk-upload" && req.method === "POST") {
    await files.bulkUpload(sb, req);
    return send(res, 200);
  }
  if (rest === "/files/bulk-download" && req.method === "POST")
    return files.bulkDownload(sb, await readJson(req), res);
  return false;
}

// Streams a command's log over a WebSocket: what is there, then (follow)
// what is appended, until the exit code is written and the log drained.
function streamLog(ws, s, cmd, follow, combined) {
  let off = 0, closed = false;
  ws.on("close", () => { closed = true; });
  const tick = () => {
    if (closed) return;
    let data;
    try {
      data = s.log(cmd);
    } catch {
      return ws.close(1000);
    }
    if (data.length > off) {
      const chunk = data.subarray(off);
      off = data.length;
      ws.send(combined ? stripMarkers(chunk) : chunk, { binary: true });
    }
    const done = s.deleted || s.get(cmd.id).exitCode !== undefined;
    if (!follow || (done && s.log(cmd).length === off)) return ws.close(1000);
    setTimeout(tick, 50);
  };
  tick();
}

export function createToolboxServer(sandboxes) {
  const wss = new WebSocketServer({ noServer: true });
  const server = http.createServer({ insecureHTTPParser: true }, async (req, res) => {
    const url = new URL(req.url, "http://toolbox");
    const m = /^\/([^/]+)(\/.*)?$/.exec(url.pathname);
    const sb = m ? sandboxes.get(decodeURIComponent(m[1])) : null;
    if (!sb) {
      req.resume();
      return daemonError(res, req, new HttpError(404, "sandbox not found", "NOT_FOUND"));
    }
    const rest = m[2] || "/";
    try {
      let done;
      if (rest === "/work-dir" || rest === "/user-home-dir") done = send(res, 200, { dir: HOME });
      else if (rest === "/version") done = send(res, 200, { version: "0.190.0" });
      else if (rest === "/process/execute" && req.method === "POST") done = await execute(sb, req, res);
      else if (rest.startsWith("/process/session")) done = await sessionRoute(sb, req, res, rest);
      else if (rest.startsWith("/files")) done = await fileRoute(sb, req, res, rest, url);
      if (done === false || done === undefined && !res.headersSent) {
        req.resume();
        daemonError(res, req, new HttpError(404, `no route ${req.method} ${rest} in the double`, "NOT_FOUND"));
      }
    } catch (e) {
      req.resume();
      if (!res.headersSent) daemonError(res, req, e, rest);
      else res.destroy();
    }
  });
  server.on("upgrade", (req, socket, head) => {
    const url = new URL(req.url, "http://toolbox");
    const m = /^\/([^/]+)\/process\/session\/([^/]+)\/command\/([^/]+)\/logs$/.exec(url.pathname);
    const sb = m ? sandboxes.get(decodeURIComponent(m[1])) : null;
    let s, cmd;
    try {
      if (!sb) throw new HttpError(404, "not found", "NOT_FOUND");
      s = sessionOf(sb, decodeURIComponent(m[2]));
      cmd = s.get(decodeURIComponent(m[3]));
    } catch (e) {
      socket.end(`HTTP/1.1 ${e.status || 500} ${http.STATUS_CODES[e.status || 500]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) =>
      streamLog(ws, s, cmd, url.searchParams.get("follow") === "true", outputMode(req).combined));
  });
  return server;
}
