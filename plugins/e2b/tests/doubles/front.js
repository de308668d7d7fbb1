// SPDX-License-Identifier: Apache-2.0
// The rig's front door for the control plane: the client's requests come
// here first, are recorded as they arrived (for wire tests), and go on to
// Prism, which validates them and the double's answers against the stored
// spec. Every violation Prism reports (its `sl-violations` header, or its
// problem+json refusal) is kept: the rig's /_control/violations lists them
// and a test fails on any.
//
// Status faults (faults.js) are answered here, before Prism: a 429 or a
// 503 is what E2B's edge sends, and the spec declares 429 for almost no
// operation, so an injected fault is deliberately not spec-checked.
import http from "node:http";
import { timeServed } from "./served.js";
import { passPrismAnswer } from "../../../../lib/tests/doubles/rest-double.js";

const BODY_RECORD_LIMIT = 64 * 1024;

export function createFront({ prismPort, faults, requests, violations, recorder, served }) {
  return http.createServer((req, res) => {
    if (served) timeServed(served, "front", res);
    const record = { method: req.method, path: req.url, headers: req.headers, body: "" };
    requests.push(record);
    const taped = recorder ? recorder.tap("api", req, res) : null;
    if (faults.applyApi(req, res)) {
      record.injected = res.statusCode;
      if (taped) taped.skip = true;
      req.resume();
      return;
    }
    // A connection per request: node's agent keeps sockets alive, and one
    // that Prism closed as idle (after its 5 s) and the agent reused gave
    // a spurious ECONNRESET under load.
    const up = http.request({
      host: "127.0.0.1", port: prismPort, method: req.method, path: req.url, agent: false,
      headers: { ...req.headers, host: `127.0.0.1:${prismPort}` },
    }, (ures) => passPrismAnswer(req, res, ures, (v) => violations.push(v)));
    up.on("error", (e) => {
      if (!res.headersSent) {
        res.writeHead(502, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ code: 502, message: `prism: ${e.message}` }));
      } else res.destroy();
    });
    req.on("data", (d) => {
      if (record.body.length < BODY_RECORD_LIMIT) record.body += d;
    });
    req.pipe(up);
  });
}
