// SPDX-License-Identifier: Apache-2.0
// The control-plane double: the part of Daytona's REST API
// (spec/api-openapi.yaml) that the adapter and the SDK's session use. It
// sits behind Prism, which validates every request and response against
// the stored spec; it answers only in the shapes that spec defines, with
// the API's error body {path, timestamp, statusCode, error, message}.
//
// A created sandbox is `creating` while its namespace sandbox starts, then
// `started` (the SDK and the adapter poll GET /sandbox/{id} for it); a
// "stuck-creating" fault keeps it `creating` for ever. One namespace
// sandbox is kept started ahead (the spare), as Daytona starts a sandbox
// from a snapshot rather than builds it per create: a create takes it and
// another is started for the next. Delete answers the
// sandbox as `destroying`; it is gone (404) right after.
//
// It also serves the rig's own control endpoints under /_control/ (faults,
// recorded requests, Prism's violations, sandboxes, expiry); those are
// reached on its own port, never through Prism.
import http from "node:http";
import crypto from "node:crypto";
import { STATUS_CODES } from "node:http";
import path from "node:path";
import { Sandbox } from "./sandbox.js";
import { send } from "../../../../lib/tests/doubles/rest-double.js";

export const DAEMON_VERSION = "0.190.0"; // the last public daemon (b5a5d9e78)
const ORG_ID = "4f3c2b1a-0d9e-4c8b-a7f6-e5d4c3b2a190";
export const SNAPSHOTS = new Set(["daytonaio/sandbox:0.5.0", "daytona-small"]);
const DEFAULT_SNAPSHOT = "daytonaio/sandbox:0.5.0";
// Per-sandbox limits of a default organisation (cores, GB, GB).
const MAX = { cpu: 4, memory: 8, disk: 10 };
const DEFAULT = { cpu: 1, memory: 1, disk: 3 };
const START_MS = Number(process.env.DAYTONA_DOUBLE_START_MS ?? 30);

export function apiError(res, req, statusCode, message) {
  send(res, statusCode, {
    path: req.url, timestamp: new Date().toISOString(), statusCode,
    error: STATUS_CODES[statusCode], message,
  });
}

async function readJson(req) {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  if (!raw) return undefined;
  return JSON.parse(raw);
}

const isInt = (v) => Number.isInteger(v);

export class ControlPlane {
  constructor({ apiKey, jwt, stateDir, faults }) {
    this.apiKey = apiKey;
    this.jwt = jwt; // { token, organizationId }
    this.stateDir = stateDir;
    this.faults = faults;
    this.toolboxUrl = ""; // set by the rig: the toolbox front door
    this.sandboxes = new Map(); // id -> Sandbox with its record fields
    this.requests = []; // as the api front door received them
    this.toolboxRequests = []; // as the toolbox front door received them
    this.violations = []; // what Prism reported
    this.violations.undeclared = []; // statuses the spec does not declare (front.js)
    // Where records send clients for the toolbox: the toolbox front door
    // (Daytona's proxy), or with `direct` the toolbox double itself (set
    // by the rig; POST /_control/toolbox), for a benchmark without Prism.
    this.toolboxDirectUrl = "";
    this.direct = false;
    this.timeline = []; // with direct: each request's arrival and end (rig.js)
    this.spare = null; // a promise of a started Sandbox, or of null
    this.spareSandbox = null; // that sandbox, to destroy at the end
    this.spareCount = 0;
    this.closed = false;
    this.startSpare();
  }

  startSpare() {
    if (this.closed || this.spare) return;
    const sb = new Sandbox(null, path.join(this.stateDir, "sandboxes", `spare-${++this.spareCount}`));
    this.spareSandbox = sb;
    this.spare = sb.start().then(() => sb, () => { sb.destroy(); return null; });
  }

  // Starts sb's namespace sandbox: takes the spare's if it started, else
  // starts one; either way a new spare is started for the next create,
  // once the create has been answered (spawning it takes a while).
  async startSandbox(sb) {
    const spare = this.spare;
    this.spare = null;
    this.spareSandbox = null;
    setImmediate(() => this.startSpare());
    const ready = spare ? await spare : null;
    if (!ready) return sb.start();
    if (!this.sandboxes.has(sb.id)) {
      ready.destroy(); // deleted while it waited for the spare
      return undefined;
    }
    sb.takeOver(ready);
    return undefined;
  }

  get proxyUrl() {
    return this.direct ? this.toolboxDirectUrl : this.toolboxUrl;
  }

  authorised(req) {
    const auth = req.headers.authorization || "";
    if (auth === `Bearer ${this.apiKey}`) return true;
    return auth === `Bearer ${this.jwt.token}` &&
      req.headers["x-daytona-organization-id"] === this.jwt.organizationId;
  }

  find(idOrName) {
    return this.sandboxes.get(idOrName) ??
      [...this.sandboxes.values()].find((sb) => sb.name === idOrName);
  }

  record(sb, { list = false } = {}) {
    const out = {
      id: sb.id, organizationId: ORG_ID, name: sb.name, snapshot: sb.snapshot,
      user: "daytona", labels: sb.labels, public: sb.public, target: sb.target,
      cpu: sb.cpu, gpu: 0, memory: sb.memory, disk: sb.disk,
      networkBlockAll: sb.networkBlockAll,
      state: sb.state, desiredState: sb.desiredState,
      autoStopInterval: sb.autoStopInterval, autoArchiveInterval: sb.autoArchiveInterval,
      autoDeleteInterval: sb.autoDeleteInterval,
      createdAt: sb.createdAt, updatedAt: sb.updatedAt, lastActivityAt: sb.updatedAt,
      sandboxClass: "container", daemonVersion: DAEMON_VERSION, runnerId: "runner-double",
      toolboxProxyUrl: this.proxyUrl,
    };
    if (sb.networkAllowList !== undefined) out.networkAllowList = sb.networkAllowList;
    if (sb.domainAllowList !== undefined) out.domainAllowList = sb.domainAllowList;
    if (sb.autoDestroyAt) out.autoDestroyAt = sb.autoDestroyAt;
    if (sb.errorReason) out.errorReason = sb.errorReason;
    if (!list) {
      out.env = sb.env;
      if (sb.buildInfo) out.buildInfo = sb.buildInfo;
    }
    return out;
  }

  touch(sb, state) {
    if (state) sb.state = state;
    sb.updatedAt = new Date().toISOString();
  }

  // The sandbox is destroyed now (delete, TTL, auto-delete, a fault).
  expire(id) {
    const sb = this.sandboxes.get(id);
    if (!sb) return false;
    this.sandboxes.delete(id);
    clearTimeout(sb.ttlTimer);
    clearTimeout(sb.startTimer);
    this.touch(sb, "destroyed");
    sb.destroy();
    return true;
  }

  // ttlMinutes: destroyed that long after creation, whatever its state.
  setTtl(sb, minutes) {
    clearTimeout(sb.ttlTimer);
    sb.autoDestroyAt = undefined;
    if (!minutes) return;
    const at = Date.parse(sb.createdAt) + minutes * 60000;
    sb.autoDestroyAt = new Date(at).toISOString();
    sb.ttlTimer = setTimeout(() => this.expire(sb.id), Math.max(0, at - Date.now()));
    sb.ttlTimer.unref();
  }

  validateCreate(body) {
    if (body.snapshot !== undefined && body.buildInfo !== undefined)
      return "Cannot specify both snapshot and buildInfo";
    if (body.snapshot !== undefined && !SNAPSHOTS.has(body.snapshot))
      return `Snapshot ${body.snapshot} not found. Did you add it through the Daytona Dashboard?`;
    if (body.buildInfo !== undefined && !/^FROM\s+\S+/m.test(body.buildInfo.dockerfileContent || ""))
      return "Invalid build info: dockerfileContent must start with a FROM instruction";
    for (const k of ["cpu", "memory", "disk"]) {
      if (body[k] === undefined) continue;
      if (!isInt(body[k]) || body[k] < 1) return `${k} must be a positive integer`;
      if (body[k] > MAX[k])
        return `${k === "cpu" ? "CPU" : k === "memory" ? "Memory" : "Disk"} request ${body[k]} exceeds maximum allowed per sandbox (${MAX[k]})`;
    }
    if (body.networkAllowList !== undefined) {
      const cidrs = body.networkAllowList.split(",").map((s) => s.trim());
      if (cidrs.length > 5) return "Network allow list cannot contain more than 5 CIDR blocks";
      for (const c of cidrs)
        if (!/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/.test(c)) return `Invalid CIDR block: ${c}`;
    }
    if (body.gpu) return "GPU sandboxes are not available in this organization";
    return null;
  }

  async create(req, res) {
    const body = (await readJson(req)) ?? {};
    const bad = this.validateCreate(body);
    if (bad) return apiError(res, req, 400, bad);
    if (body.name && this.find(body.name))
      return apiError(res, req, 409, `Sandbox with name ${body.name} already exists`);
    const id = crypto.randomUUID();
    const sb = new Sandbox(id, path.join(this.stateDir, "sandboxes", id));
    const now = new Date().toISOString();
    Object.assign(sb, {
      name: body.name || id,
      snapshot: body.buildInfo ? undefined : body.snapshot ?? DEFAULT_SNAPSHOT,
      buildInfo: body.buildInfo ? { dockerfileContent: body.buildInfo.dockerfileContent,
        snapshotRef: `daytona-build-${crypto.createHash("sha256").update(body.buildInfo.dockerfileContent).digest("hex").slice(0, 12)}`,
        createdAt: now, updatedAt: now } : undefined,
      env: body.env ?? {}, labels: body.labels ?? {}, public: body.public ?? false,
      target: body.target ?? "us",
      cpu: body.cpu ?? DEFAULT.cpu, memory: body.memory ?? DEFAULT.memory, disk: body.disk ?? DEFAULT.disk,
      networkBlockAll: body.networkBlockAll ?? false,
      networkAllowList: body.networkAllowList, domainAllowList: body.domainAllowList,
      autoStopInterval: body.autoStopInterval ?? 15, autoArchiveInterval: body.autoArchiveInterval ?? 10080,
      autoDeleteInterval: body.autoDeleteInterval ?? -1,
      state: "creating", desiredState: "started", createdAt: now, updatedAt: now,
      createBody: body,
    });
    this.setTtl(sb, body.ttlMinutes ?? 0);
    this.sandboxes.set(id, sb);
    const stuck = this.faults.stuckCreating(req);
    const started = this.startSandbox(sb).then(() => {
      if (stuck || !this.sandboxes.has(id)) return;
      sb.startTimer = setTimeout(() => this.touch(sb, "started"), START_MS);
    }, (e) => {
      sb.errorReason = `failed to start the sandbox: ${e.message}`;
      this.touch(sb, "error");
    });
    void started;
    send(res, 200, this.record(sb));
  }

  list(res, url) {
    let labels = {};
    const q = url.searchParams.get("labels");
    if (q) labels = JSON.parse(q);
    const states = url.searchParams.getAll("states");
    const items = [...this.sandboxes.values()]
      .filter((sb) => Object.entries(labels).every(([k, v]) => sb.labels[k] === v))
      .filter((sb) => !states.length || states.includes(sb.state))
      .map((sb) => this.record(sb, { list: true }));
    send(res, 200, { items, nextCursor: null });
  }

  async route(req, res, url) {
    const m = url.pathname.match(/^\/sandbox\/([^/]+)(\/[a-z-]+)?(\/[^/]+)?$/);
    const sb = m && m[1] !== "paginated" ? this.find(decodeURIComponent(m[1])) : null;
    if (m && m[1] !== "paginated" && !sb) {
      req.resume();
      return apiError(res, req, 404, `Sandbox with ID or name ${decodeURIComponent(m[1])} not found`);
    }
    const key = `${req.method} ${m ? `/sandbox/{id}${m[2] ?? ""}${m[3] ? "/{arg}" : ""}` : url.pathname}`;
    const arg = m?.[3] ? Number(m[3].slice(1)) : undefined;
    switch (key) {
      case "POST /sandbox":
        return this.create(req, res);
      case "GET /sandbox":
        return this.list(res, url);
      case "GET /sandbox/{id}":
        return send(res, 200, this.record(sb));
      case "DELETE /sandbox/{id}": {
        const out = this.record(sb);
        out.state = "destroying";
        out.desiredState = "destroyed";
        this.expire(sb.id);
        return send(res, 200, out);
      }
      case "GET /sandbox/{id}/toolbox-proxy-url":
        return send(res, 200, { url: this.proxyUrl });
      case "POST /sandbox/{id}/autostop/{arg}":
        sb.autoStopInterval = arg;
        this.touch(sb);
        return send(res, 200, this.record(sb));
      case "POST /sandbox/{id}/autodelete/{arg}":
        sb.autoDeleteInterval = arg;
        this.touch(sb);
        return send(res, 200, this.record(sb));
      case "POST /sandbox/{id}/ttl/{arg}":
        this.setTtl(sb, arg);
        this.touch(sb);
        return send(res, 200, this.record(sb));
      default:
        req.resume();
        return apiError(res, req, 404, `Cannot ${req.method} ${url.pathname}`);
    }
  }

  async control(req, res, url) {
    const exp = url.pathname.match(/^\/_control\/sandboxes\/([^/]+)\/expire$/);
    const lists = { requests: this.requests, "toolbox-requests": this.toolboxRequests,
      violations: this.violations, undeclared: this.violations.undeclared, timeline: this.timeline };
    const name = url.pathname.slice("/_control/".length);
    if (req.method === "POST" && name === "faults") {
      this.faults.add(await readJson(req));
      return send(res, 204);
    }
    if (req.method === "POST" && name === "toolbox") {
      this.direct = Boolean((await readJson(req))?.direct);
      return send(res, 204);
    }
    if (req.method === "DELETE" && name === "faults") {
      this.faults.clear();
      return send(res, 204);
    }
    if (lists[name] && req.method === "GET") return send(res, 200, lists[name]);
    if (lists[name] && req.method === "DELETE") {
      lists[name].length = 0;
      return send(res, 204);
    }
    if (req.method === "GET" && name === "sandboxes")
      return send(res, 200, [...this.sandboxes.values()].map((sb) => ({
        id: sb.id, state: sb.state, labels: sb.labels, createBody: sb.createBody,
        autoStopInterval: sb.autoStopInterval, autoDeleteInterval: sb.autoDeleteInterval,
        autoDestroyAt: sb.autoDestroyAt ?? null })));
    if (req.method === "POST" && exp) return send(res, this.expire(exp[1]) ? 204 : 404);
    return send(res, 404, { message: `no control route ${req.method} ${url.pathname}` });
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
        if (!this.authorised(req)) {
          req.resume();
          return apiError(res, req, 401, "Invalid credentials");
        }
        await this.route(req, res, url);
      } catch (e) {
        if (!res.headersSent) apiError(res, req, 500, e.message);
      }
    });
  }

  closeAll() {
    this.closed = true;
    for (const id of [...this.sandboxes.keys()]) this.expire(id);
    if (this.spareSandbox) this.spareSandbox.destroy();
    this.spareSandbox = null;
    this.spare = null;
  }
}
