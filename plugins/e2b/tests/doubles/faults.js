// SPDX-License-Identifier: Apache-2.0
// Fault injection for the adapter's tests. A rule is armed through the
// control endpoint (POST /_control/faults) or the E2B_DOUBLE_FAULTS
// environment variable (a JSON rule or array of rules):
//   { "target": "api" | "envd",        which double answers
//     "method": "POST", "path": "^/sandboxes$",   optional filters (regex)
//     "times": 1,                      how many requests it hits (0: all)
//     "action": "status" | "cut-stream" | "expire-mid-exec" | "envd-slow",
//     "status": 429, "retryAfter": 1, "message": "...",   for "status"
//     "afterEvents": 1,                for "cut-stream": events sent first
//     "afterMs": 200,                  for "expire-mid-exec"
//     "ms": 1500 }                     for "envd-slow"
// "status" answers the request with that HTTP status and an E2B error body
// (with Retry-After when given); "cut-stream" closes the connection of a
// streaming call after some events, before its end-of-stream frame;
// "expire-mid-exec" makes the sandbox of a Start expire as its TTL would,
// while the command runs; "envd-slow" (on create) keeps the new sandbox's
// envd answering 502 for a while, as E2B's proxy does before envd is up.
function matches(rule, target, req) {
  if (rule.target !== target) return false;
  if (rule.method && rule.method !== req.method) return false;
  if (rule.path && !new RegExp(rule.path).test(new URL(req.url, "http://x").pathname)) return false;
  return true;
}

export class Faults {
  constructor(expire) {
    this.rules = [];
    this.expire = expire; // (sandboxId) => void: the sandbox dies now
    const env = process.env.E2B_DOUBLE_FAULTS;
    if (env) this.add(JSON.parse(env));
  }

  add(rules) {
    for (const r of [].concat(rules)) {
      if (!["api", "envd"].includes(r.target)) throw new Error(`bad fault target ${r.target}`);
      this.rules.push({ times: 1, action: r.status ? "status" : r.action, ...r, hits: 0 });
    }
  }

  clear() {
    this.rules = [];
  }

  take(target, req, actions) {
    for (const r of this.rules) {
      if (!actions.includes(r.action) || !matches(r, target, req)) continue;
      r.hits++;
      if (r.times && r.hits >= r.times) this.rules.splice(this.rules.indexOf(r), 1);
      return r;
    }
    return null;
  }

  static answer(res, r) {
    const body = JSON.stringify({ code: r.status, message: r.message || `injected ${r.status}` });
    const headers = { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) };
    if (r.retryAfter !== undefined) headers["Retry-After"] = String(r.retryAfter);
    res.writeHead(r.status, headers);
    res.end(body);
  }

  // True when a fault answered the control-plane request itself.
  applyApi(req, res) {
    const r = this.take("api", req, ["status"]);
    if (!r) return false;
    Faults.answer(res, r);
    return true;
  }

  // How long a sandbox created by this request stays unreachable.
  envdSlowMs(req) {
    const r = this.take("api", req, ["envd-slow"]);
    return r ? r.ms ?? 1000 : 0;
  }

  // True when a fault answered the envd request; otherwise it may arm
  // hooks on the request's state for the streaming faults.
  applyEnvd(req, res, state) {
    const r = this.take("envd", req, ["status", "cut-stream", "expire-mid-exec"]);
    if (!r) return false;
    if (r.action === "status") {
      Faults.answer(res, r);
      return true;
    }
    let sent = 0;
    state.afterEvent = () => {
      sent++;
      if (r.action === "cut-stream" && sent >= (r.afterEvents ?? 1)) {
        // Let the events already written reach the client, then drop the
        // connection: no end-of-stream frame, no chunked terminator.
        setImmediate(() => req.socket.destroy());
      } else if (r.action === "expire-mid-exec" && sent === 1) {
        setTimeout(() => this.expire(state.sb.id), r.afterMs ?? 200);
      }
    };
    return false;
  }
}
