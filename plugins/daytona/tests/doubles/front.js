// SPDX-License-Identifier: Apache-2.0
// The rig's front doors. The client's requests come here first, are
// recorded as they arrived (for the wire tests), and go on to Prism, which
// validates them and the double's answers against the stored spec. Every
// violation Prism reports (its `sl-violations` header, or its problem+json
// refusal) is kept: the rig's /_control/violations lists them and a test
// fails on any.
//
// Status faults (faults.js) are answered here, before Prism: a 429 or a
// 503 is what Daytona's edge sends, and the specs declare neither for any
// operation, so an injected fault is deliberately not spec-checked.
//
// The toolbox front door also stands for Daytona's proxy
// (proxy.app.daytona.io/toolbox/{sandboxId}/...): it checks the bearer
// credential, routes by the sandbox id, answers 404 for a sandbox that is
// not (or no longer) running, and passes WebSocket upgrades (the followed
// logs) straight to the toolbox double: the toolbox spec describes the
// daemon behind the proxy, and Prism cannot proxy a WebSocket.
//
// With a recorder (rig.js: DAYTONA_WIRE_RECORD), each front door taps every
// exchange for the spec check of the adapter's surface (tests/churn/):
// what Daytona would have served, not the injected faults, the proxy's
// refusals (no spec describes the proxy) or a Prism that did not answer.
//
// The file-content operations go around Prism too (straight to the
// toolbox double, recorded all the same): Prism cannot carry them.
// prism-http-server 5.12.2 (dist/server.js) reads a request body whole as
// text with a 10 MB limit (a 64 MiB upload is refused with 413) and hands
// bodies on as strings (binary content would not survive), and
// prism-http 5.12.0 (dist/validator/index.js) takes a multipart body's
// boundary from the request's Content-Type even for a response, so it
// refuses every multipart answer (bulk-download). These are
// /files/download, /files/upload-v2, /files/bulk-upload and
// /files/bulk-download; every other toolbox call is spec-checked.
import http from "node:http";
import net from "node:net";
import { commandOver } from "./toolbox.js";
import { passPrismAnswer } from "../../../../lib/tests/doubles/rest-double.js";

const BODY_RECORD_LIMIT = 64 * 1024;

function jsonAnswer(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

// The proxy's and the daemon's error body (common-go ErrorResponse).
export function proxyError(status, message, req) {
  const codes = { 401: "UNAUTHORIZED", 403: "FORBIDDEN", 404: "NOT_FOUND", 429: "BAD_REQUEST",
    503: "INTERNAL_SERVER_ERROR" };
  return { statusCode: status, message, code: codes[status] ?? "INTERNAL_SERVER_ERROR",
    timestamp: new Date().toISOString(), path: req.url, method: req.method };
}

function retryHeaders(r) {
  return r.retryAfter !== undefined ? { "Retry-After": String(r.retryAfter) } : {};
}

const AROUND_PRISM = /^\/[^/]+\/files\/(download|upload-v2|bulk-upload|bulk-download)(\?|$)/;

// Prism's one warning that is not a fault of the double: a status the
// spec does not declare. Daytona's API spec declares only the success of
// each operation, so every error the API answers (401, 404, 409, ...) is
// one; they are kept apart (violations.undeclared) and the tests check
// them, while any other report fails the test.
function keep(violations, entry) {
  let list;
  try {
    list = JSON.parse(entry.violations);
  } catch {
    list = null;
  }
  const undeclared = Array.isArray(list) && list.length > 0 && list.every((x) =>
    x.severity === "Warning" && /^Unable to match the returned status code/.test(x.message));
  if (undeclared) violations.undeclared.push({ method: entry.method, path: entry.path, status: entry.status });
  else violations.push(entry);
}

// Passes the request on to Prism (or, for AROUND_PRISM, straight to the
// double on `directPort`) and keeps what Prism reports.
function toPrism(req, res, prismPort, record, violations, onSocket, directPort, taped) {
  const port = directPort && AROUND_PRISM.test(req.url) ? directPort : prismPort;
  if (port !== prismPort) record.aroundPrism = true;
  const up = http.request({
    host: "127.0.0.1", port, method: req.method, path: req.url,
    headers: { ...req.headers, host: `127.0.0.1:${port}` },
  }, (ures) => passPrismAnswer(req, res, ures, (v) => keep(violations, v), (v) => violations.push(v)));
  if (onSocket) up.on("socket", onSocket);
  up.on("error", (e) => {
    if (taped) taped.skip = true;
    if (!res.headersSent) jsonAnswer(res, 502, { statusCode: 502, message: `prism: ${e.message}` });
    else res.destroy();
  });
  req.on("data", (d) => {
    if (record.body.length < BODY_RECORD_LIMIT) record.body += d.toString("latin1");
  });
  req.pipe(up);
}

export function createApiFront({ prismPort, faults, requests, violations, recorder }) {
  return http.createServer((req, res) => {
    const record = { method: req.method, path: req.url, headers: req.headers, body: "" };
    requests.push(record);
    const taped = recorder ? recorder.tap("api", req, res) : null;
    const pathname = new URL(req.url, "http://x").pathname;
    const r = faults.status("api", req.method, pathname);
    if (r) {
      record.injected = r.status;
      if (taped) taped.skip = true;
      req.resume();
      return jsonAnswer(res, r.status, {
        path: req.url, timestamp: new Date().toISOString(), statusCode: r.status,
        error: http.STATUS_CODES[r.status], message: r.message || `injected ${r.status}`,
      }, retryHeaders(r));
    }
    toPrism(req, res, prismPort, record, violations, null, null, taped);
  });
}

// `cp`: the ControlPlane (credentials and sandboxes); `toolboxPort`: the
// toolbox double's own port, for WebSocket upgrades.
export function createToolboxFront({ prismPort, toolboxPort, faults, cp, recorder }) {
  // The proxy's checks; an answer (status, body, headers) or the sandbox.
  function check(req) {
    const m = /^\/([^/?]+)(\/[^?]*)?/.exec(req.url);
    const id = m ? decodeURIComponent(m[1]) : "";
    const rest = m?.[2] ?? "/";
    const r = faults.status("toolbox", req.method, rest);
    if (r) return { answer: [r.status, proxyError(r.status, r.message || `injected ${r.status}`, req), retryHeaders(r)], injected: r.status };
    if (!cp.authorised(req)) return { answer: [401, proxyError(401, "unauthorized", req), {}] };
    const sb = cp.sandboxes.get(id);
    if (!sb || sb.state !== "started") return { answer: [404, proxyError(404, "sandbox not found", req), {}] };
    faults.toolboxRequest(req.method, rest, id);
    return { sb, rest };
  }

  // The "after-exit" fault: an input request waits here until its command
  // is over (the double's state, looked at every 10 ms; its body stays
  // unread meanwhile), or its sandbox is gone, or 60 s have passed.
  async function heldUntilExit(sb, rest) {
    const m = /^\/process\/session\/([^/]+)\/command\/([^/]+)\/input$/.exec(rest);
    if (!m) return;
    const [sid, cmdId] = [decodeURIComponent(m[1]), decodeURIComponent(m[2])];
    for (const until = Date.now() + 60000; Date.now() < until; ) {
      if (sb.state !== "started" || commandOver(sb, sid, cmdId)) return;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  const server = http.createServer((req, res) => {
    const record = { method: req.method, path: req.url, headers: req.headers, body: "" };
    cp.toolboxRequests.push(record);
    const taped = recorder ? recorder.tap("toolbox", req, res) : null;
    const c = check(req);
    if (c.answer) {
      record.injected = c.injected;
      if (taped) taped.skip = true;
      req.resume();
      return jsonAnswer(res, ...c.answer);
    }
    // A sandbox deleted mid-request cuts its connections, as Daytona's
    // runner does when the container goes.
    c.sb.sockets.add(req.socket);
    res.on("close", () => c.sb.sockets.delete(req.socket));
    if (!faults.afterExit(req.method, c.rest))
      return toPrism(req, res, prismPort, record, cp.violations, null, toolboxPort, taped);
    heldUntilExit(c.sb, c.rest).then(() =>
      toPrism(req, res, prismPort, record, cp.violations, null, toolboxPort, taped));
  });

  server.on("upgrade", (req, socket, head) => {
    cp.toolboxRequests.push({ method: req.method, path: req.url, headers: req.headers, body: "", upgrade: true });
    const c = check(req);
    if (c.answer) {
      const [status, body] = c.answer;
      const text = JSON.stringify(body);
      socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
      return;
    }
    if (recorder) recorder.upgrade("toolbox", req);
    const up = net.connect(toolboxPort, "127.0.0.1", () => {
      let headText = `${req.method} ${req.url} HTTP/1.1\r\n`;
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        headText += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
      up.write(headText + "\r\n");
      if (head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    c.sb.sockets.add(socket);
    c.sb.sockets.add(up);
    const drop = () => { socket.destroy(); up.destroy(); };
    up.on("error", drop);
    socket.on("error", drop);
    socket.on("close", () => { c.sb.sockets.delete(socket); c.sb.sockets.delete(up); up.destroy(); });
  });
  return server;
}
