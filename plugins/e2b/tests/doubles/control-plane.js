// SPDX-License-Identifier: Apache-2.0
// The control-plane double: the part of E2B's REST API (spec/openapi.yml)
// that the adapter and the SDK's session use. It sits behind Prism, which
// validates every request and response against the stored spec; it answers
// only in the shapes that spec defines, with E2B's error body {code,message}.
//
// It also serves the rig's own control endpoints under /_control/ (faults,
// recorded requests, Prism's violations, sandboxes, expiry); those are
// reached on its own port, never through Prism.
import http from "node:http";
import crypto from "node:crypto";
import path from "node:path";
import { Sandbox } from "./sandbox.js";
import { send } from "../../../../lib/tests/doubles/rest-double.js";
import { timeServed } from "./served.js";

export const ENVD_VERSION = "0.6.13"; // packages/envd/pkg/version.go @ infra 54693ff3
const CLIENT_ID = "6532622b";
const TEMPLATES = new Map([["base", "rki5dems9wqfm4r03t7g"]]); // alias -> id
const MAX_TIMEOUT_S = 3600;
const SPARES = 2; // sandboxes kept started ahead

const error = (res, code, message) => send(res, code, { code, message });

async function readJson(req) {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  if (!raw) return undefined;
  return JSON.parse(raw);
}

function newId() {
  return crypto.randomBytes(15).toString("base64").replace(/[^a-z0-9]/gi, "").toLowerCase().slice(0, 20).padEnd(20, "0");
}

// `metadata=user%3Dabc%26app%3Dprod`: each key and value URL-encoded.
function metadataFilter(q) {
  if (!q) return [];
  return [...new URLSearchParams(q)];
}

export class ControlPlane {
  constructor({ apiKey, stateDir, faults, envdUrl }) {
    this.apiKey = apiKey;
    this.stateDir = stateDir;
    this.faults = faults;
    this.envdUrl = envdUrl;
    this.sandboxes = new Map(); // id -> Sandbox with its record fields
    this.requests = []; // as the front door received them
    this.violations = []; // Prism's sl-violations headers
    this.envdRequests = []; // as the envd double received them
    // Milliseconds spent answering, from a request's arrival to the end of
    // its answer, by the front door (Prism and this double behind it), by
    // this double, and by envd: what a client waited on the doubles for,
    // which a benchmark takes from a round's wall time to leave the client's.
    this.served = { front: 0, api: 0, envd: 0 };
    // E2B starts a sandbox from a snapshot rather than from nothing: the
    // double keeps sandboxes started ahead (fresh ones, never used), so a
    // create waits only for its own bookkeeping, as E2B's mostly does. Two,
    // so a client that creates as fast as a spare starts still finds one.
    this.spares = []; // { sandbox, started, ready: a promise of it started, or of null }
    this.spareCount = 0;
    this.closed = false;
    this.startSpares();
  }

  startSpares() {
    while (!this.closed && this.spares.length < SPARES) {
      const sb = new Sandbox(null, path.join(this.stateDir, "sandboxes", `spare-${++this.spareCount}`));
      const spare = { sandbox: sb, started: false };
      spare.ready = sb.start().then(() => { spare.started = true; return sb; },
        () => { sb.destroy(); return null; });
      this.spares.push(spare);
    }
  }

  // A started sandbox for a create: a spare if it started, else a new one.
  async startedSandbox(id) {
    const first = this.spares.findIndex((s) => s.started);
    const spare = this.spares.splice(first >= 0 ? first : 0, 1)[0];
    let sb = spare ? await spare.ready : null;
    // The next spare starts once this create's answer is out: spawning
    // bwrap blocks the event loop for a fork, which the answer need not wait.
    setImmediate(() => this.startSpares());
    if (sb) {
      sb.id = id;
      return sb;
    }
    sb = new Sandbox(id, path.join(this.stateDir, "sandboxes", id));
    try {
      await sb.start();
    } catch (e) {
      sb.destroy();
      throw e;
    }
    return sb;
  }

  record(sb) {
    return {
      templateID: sb.templateID,
      alias: sb.alias,
      sandboxID: sb.id,
      clientID: CLIENT_ID,
      envdVersion: ENVD_VERSION,
    };
  }

  detail(sb) {
    return {
      ...this.record(sb),
      startedAt: sb.startedAt.toISOString(),
      endAt: sb.endAt.toISOString(),
      cpuCount: 2,
      memoryMB: 512,
      diskSizeMB: 1024,
      metadata: sb.metadata,
      state: sb.paused ? "paused" : "running",
    };
  }

  // The sandbox dies as E2B kills it at its TTL (or as a kill does).
  expire(id) {
    const sb = this.sandboxes.get(id);
    if (!sb) return false;
    this.sandboxes.delete(id);
    this.expireRemoved(sb);
    return true;
  }

  expireRemoved(sb) {
    clearTimeout(sb.ttlTimer);
    sb.destroy();
  }

  setTtl(sb, seconds) {
    clearTimeout(sb.ttlTimer);
    sb.endAt = new Date(Date.now() + seconds * 1000);
    sb.ttlTimer = setTimeout(() => this.expire(sb.id), seconds * 1000);
    sb.ttlTimer.unref();
  }

  async create(req, res) {
    const body = await readJson(req);
    const alias = body?.templateID;
    const templateID = TEMPLATES.get(alias) ?? ([...TEMPLATES.values()].includes(alias) ? alias : null);
    // The spec gives create no 404: a missing template is a 400 here.
    if (!templateID) return error(res, 400, `template '${alias}' not found`);
    const timeout = body.timeout ?? 15;
    if (timeout > MAX_TIMEOUT_S)
      return error(res, 400, `Timeout cannot be greater than ${MAX_TIMEOUT_S / 3600} hours`);
    const id = newId();
    let sb;
    try {
      sb = await this.startedSandbox(id);
    } catch (e) {
      return error(res, 500, `failed to start the sandbox: ${e.message}`);
    }
    sb.templateID = templateID;
    sb.alias = templateID === alias ? undefined : alias;
    sb.metadata = body.metadata ?? {};
    sb.envVars = body.envVars ?? {};
    sb.secure = body.secure === true;
    sb.accessToken = sb.secure ? crypto.randomBytes(24).toString("hex") : null;
    sb.allowInternetAccess = body.allow_internet_access;
    sb.network = body.network;
    sb.startedAt = new Date();
    sb.readyAt = Date.now() + this.faults.envdSlowMs(req);
    this.setTtl(sb, timeout);
    this.sandboxes.set(id, sb);
    const out = { ...this.record(sb), domain: null };
    if (sb.accessToken) out.envdAccessToken = sb.accessToken;
    send(res, 201, out);
  }

  list(res, url) {
    const filter = metadataFilter(url.searchParams.get("metadata"));
    const states = url.searchParams.get("state");
    const wanted = states ? states.split(",") : ["running", "paused"];
    const out = [...this.sandboxes.values()]
      .filter((sb) => wanted.includes(sb.paused ? "paused" : "running"))
      .filter((sb) => filter.every(([k, v]) => sb.metadata[k] === v))
      .map((sb) => {
        const { allowInternetAccess, ...listed } = this.detail(sb); // eslint-disable-line no-unused-vars
        return listed;
      });
    send(res, 200, out);
  }

  async route(req, res, url) {
    const m = url.pathname.match(/^\/sandboxes\/([^/]+)(\/[a-z]+)?$/);
    const sb = m ? this.sandboxes.get(m[1]) : null;
    if (m && !sb) return error(res, 404, `sandbox "${m[1]}" doesn't exist or you don't have access to it`);
    const key = `${req.method} ${m ? `/sandboxes/{id}${m[2] ?? ""}` : url.pathname}`;
    switch (key) {
      case "GET /health":
        return send(res, 204);
      case "POST /sandboxes":
        return this.create(req, res);
      case "GET /sandboxes":
      case "GET /v2/sandboxes":
        return this.list(res, url);
      case "GET /sandboxes/{id}":
        return send(res, 200, this.detail(sb));
      case "DELETE /sandboxes/{id}":
        // Gone from the API at once; its processes and files are cleared
        // after the answer, as E2B tears a VM down after answering.
        this.sandboxes.delete(sb.id);
        send(res, 204);
        setImmediate(() => this.expireRemoved(sb));
        return;
      case "POST /sandboxes/{id}/timeout": {
        const body = (await readJson(req)) ?? {};
        this.setTtl(sb, Math.min(body.timeout ?? 15, MAX_TIMEOUT_S));
        return send(res, 204);
      }
      // Paused, envd is unreachable (E2B's proxy answers 502) until connect resumes it.
      case "POST /sandboxes/{id}/pause":
        if (sb.paused) return error(res, 409, `sandbox "${sb.id}" is already paused`);
        sb.paused = true;
        return send(res, 204);
      case "POST /sandboxes/{id}/connect": {
        const body = await readJson(req);
        const resumed = sb.paused === true;
        sb.paused = false;
        // "TTL is only extended."
        if (Date.now() + body.timeout * 1000 > sb.endAt.getTime()) this.setTtl(sb, body.timeout);
        const out = { ...this.record(sb), domain: null };
        if (sb.accessToken) out.envdAccessToken = sb.accessToken;
        return send(res, resumed ? 201 : 200, out);
      }
      default:
        return error(res, 404, `no route ${req.method} ${url.pathname} in the double`);
    }
  }

  async control(req, res, url) {
    const exp = url.pathname.match(/^\/_control\/sandboxes\/([^/]+)\/expire$/);
    if (req.method === "POST" && url.pathname === "/_control/faults") {
      this.faults.add(await readJson(req));
      return send(res, 204);
    }
    if (req.method === "DELETE" && url.pathname === "/_control/faults") {
      this.faults.clear();
      return send(res, 204);
    }
    if (req.method === "GET" && url.pathname === "/_control/served") return send(res, 200, this.served);
    if (req.method === "GET" && url.pathname === "/_control/requests") return send(res, 200, this.requests);
    if (req.method === "DELETE" && url.pathname === "/_control/requests") {
      this.requests.length = 0;
      return send(res, 204);
    }
    if (req.method === "GET" && url.pathname === "/_control/envd-requests") return send(res, 200, this.envdRequests);
    if (req.method === "DELETE" && url.pathname === "/_control/envd-requests") {
      this.envdRequests.length = 0;
      return send(res, 204);
    }
    if (req.method === "GET" && url.pathname === "/_control/violations") return send(res, 200, this.violations);
    if (req.method === "DELETE" && url.pathname === "/_control/violations") {
      this.violations.length = 0;
      return send(res, 204);
    }
    if (req.method === "GET" && url.pathname === "/_control/sandboxes")
      return send(res, 200, [...this.sandboxes.keys()]);
    if (req.method === "POST" && exp) return send(res, this.expire(exp[1]) ? 204 : 404);
    return error(res, 404, `no control route ${req.method} ${url.pathname}`);
  }

  server() {
    // Prism forwards the client's `Transfer-Encoding: chunked` beside the
    // Content-Length it sets itself; node's strict parser refuses such a
    // request (400), so this server, which only Prism and the rig's own
    // control calls reach, parses leniently.
    return http.createServer({ insecureHTTPParser: true }, async (req, res) => {
      const url = new URL(req.url, "http://api");
      try {
        if (url.pathname.startsWith("/_control/")) return await this.control(req, res, url);
        timeServed(this.served, "api", res);
        const open = req.method === "GET" && url.pathname === "/health"; // no security in the spec
        if (!open && req.headers["x-api-key"] !== this.apiKey) {
          // The control plane's 401 says so plainly, as E2B's does.
          req.resume();
          return error(res, 401, "Invalid API key, it must start with 'e2b_' prefix and be followed by 40 hexadecimal characters");
        }
        await this.route(req, res, url);
      } catch (e) {
        if (!res.headersSent) error(res, 500, e.message);
      }
    });
  }

  closeAll() {
    this.closed = true;
    for (const id of [...this.sandboxes.keys()]) this.expire(id);
    for (const spare of this.spares) spare.sandbox.destroy();
    this.spares = [];
  }
}
