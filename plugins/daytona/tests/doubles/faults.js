// SPDX-License-Identifier: Apache-2.0
// Fault injection for the adapter's tests. A rule is armed through the
// control endpoint (POST /_control/faults) or the DAYTONA_DOUBLE_FAULTS
// environment variable (a JSON rule or array of rules):
//   { "target": "api" | "toolbox",    which front door answers
//     "method": "POST", "path": "^/sandbox$",   optional filters (regex on
//                                      the path; for the toolbox, the path
//                                      after /{sandboxId})
//     "times": 1,                      how many requests it hits (0: all)
//     "action": "status" | "stuck-creating" | "delete-mid-exec" | "after-exit",
//     "status": 429, "retryAfter": 1, "message": "...",   for "status"
//     "afterMs": 200 }                 for "delete-mid-exec"
// "status" answers the request with that HTTP status and Daytona's error
// body (with Retry-After when given); "stuck-creating" (on create) keeps
// the new sandbox in `creating` for ever, as a sandbox whose runner never
// reports it started; "delete-mid-exec" (on a toolbox request) deletes the
// request's sandbox that long after the request arrived, as a TTL or
// another client would: from then on the API says 404 for it and the
// toolbox proxy too; "after-exit" (on a command's input) holds the request
// at the front door until its command has ended (or never can: its
// session's shell exited), then passes it on: stdin that the network
// delivered late, so the daemon's 410 for it is certain, not a race with
// the command's end.
function matches(rule, target, method, pathname) {
  if (rule.target !== target) return false;
  if (rule.method && rule.method !== method) return false;
  if (rule.path && !new RegExp(rule.path).test(pathname)) return false;
  return true;
}

export class Faults {
  constructor(expire) {
    this.rules = [];
    this.expire = expire; // (sandboxId) => void: the sandbox is gone now
    const env = process.env.DAYTONA_DOUBLE_FAULTS;
    if (env) this.add(JSON.parse(env));
  }

  add(rules) {
    for (const r of [].concat(rules)) {
      if (!["api", "toolbox"].includes(r.target)) throw new Error(`bad fault target ${r.target}`);
      const action = r.status ? "status" : r.action;
      if (!["status", "stuck-creating", "delete-mid-exec", "after-exit"].includes(action))
        throw new Error(`bad fault action ${r.action}`);
      this.rules.push({ times: 1, ...r, action, hits: 0 });
    }
  }

  clear() {
    this.rules = [];
  }

  take(target, method, pathname, actions) {
    for (const r of this.rules) {
      if (!actions.includes(r.action) || !matches(r, target, method, pathname)) continue;
      r.hits++;
      if (r.times && r.hits >= r.times) this.rules.splice(this.rules.indexOf(r), 1);
      return r;
    }
    return null;
  }

  // A status fault for this request, or null.
  status(target, method, pathname) {
    return this.take(target, method, pathname, ["status"]);
  }

  // True when the sandbox this create makes must never start.
  stuckCreating(req) {
    const pathname = new URL(req.url, "http://x").pathname;
    return !!this.take("api", req.method, pathname, ["stuck-creating"]);
  }

  // True when this toolbox request must wait for its command's end.
  afterExit(method, pathname) {
    return !!this.take("toolbox", method, pathname, ["after-exit"]);
  }

  // Arms the deletion of `sandboxId` if a rule asks for it.
  toolboxRequest(method, pathname, sandboxId) {
    const r = this.take("toolbox", method, pathname, ["delete-mid-exec"]);
    if (r) setTimeout(() => this.expire(sandboxId), r.afterMs ?? 200).unref();
  }
}
