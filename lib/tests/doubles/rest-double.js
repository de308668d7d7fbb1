// SPDX-License-Identifier: Apache-2.0
// What the cloud backends' doubles share (the REST test rig's base): ports
// on 127.0.0.1, Prism started in proxy mode before a double, its
// violations kept by a front door, rig.json written once all answers, a
// sandbox's namespaces held by bwrap with its paths resolved inside its
// own root, JSON answers, and the SDK sessions' steps and big streams.
// Only node's own modules: it is imported from each backend's doubles
// directory (../../../../lib/tests/doubles/, copied beside the build tree's
// doubles by lib/tests/rest-rig.sh), which has the npm packages.
import assert from "node:assert/strict";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { spawn } from "node:child_process";

// --- the rig ------------------------------------------------------------------

export function listen(server) {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server.address().port));
  });
}

export async function freePort() {
  const s = net.createServer();
  const port = await listen(s);
  await new Promise((r) => s.close(r));
  return port;
}

// Prism is up once it answers at probe (its own 4xx for a bad request will do).
export async function waitHttp(port, child, ms, probe = "/") {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) return false;
    try {
      await fetch(`http://127.0.0.1:${port}${probe}`);
      return true;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return false;
}

// Prism (its entry point `bin`) in proxy mode with --errors before the
// upstream port, checking against spec; its output appended to log; each
// child, as soon as it runs, to onChild (to be killed at a shutdown). Three
// tries (a port picked may be taken meanwhile); the child and its port, or
// null.
export async function startPrism({ bin, spec, upstreamPort, log, probe = "/", onChild = () => {} }) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const fd = fs.openSync(log, "a");
    const child = spawn(process.execPath, [bin, "proxy", spec, `http://127.0.0.1:${upstreamPort}`,
      "--errors", "-h", "127.0.0.1", "-p", String(port)], { stdio: ["ignore", fd, fd] });
    fs.closeSync(fd);
    onChild(child);
    if (await waitHttp(port, child, 180000, probe)) return { child, port };
    if (child.exitCode === null) child.kill("SIGKILL");
  }
  return null;
}

// rig.json in stateDir, whole or not at all (the rig script waits for it).
export function writeRigJson(stateDir, info) {
  fs.writeFileSync(path.join(stateDir, "rig.json.tmp"), JSON.stringify(info, null, 2));
  fs.renameSync(path.join(stateDir, "rig.json.tmp"), path.join(stateDir, "rig.json"));
}

// Prism's answer ures to req passed on to res. Its violations (the
// sl-violations header to keep, or its own problem+json refusal, an
// invalid request or --errors turning an invalid response into one, to
// refusal) are kept.
export function passPrismAnswer(req, res, ures, keep, refusal = keep) {
  const v = ures.headers["sl-violations"];
  if (v) keep({ method: req.method, path: req.url, status: ures.statusCode, violations: v });
  res.writeHead(ures.statusCode, ures.headers);
  if (!v && /problem\+json/.test(ures.headers["content-type"] || "")) {
    let text = "";
    ures.on("data", (d) => { text += d; });
    ures.on("end", () => {
      refusal({ method: req.method, path: req.url, status: ures.statusCode, violations: text });
    });
  }
  ures.pipe(res);
}

// --- the doubles' HTTP ----------------------------------------------------------

export function send(res, status, body) {
  if (body === undefined) {
    res.writeHead(status);
    return res.end();
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

// --- a sandbox: namespaces held by bwrap ----------------------------------------

// The parts of the host's /etc a shell needs; the rest of /etc stays out.
export const ETC_FILES = ["alternatives", "ld.so.cache", "nsswitch.conf", "profile",
  "bash.bashrc", "passwd", "group", "localtime"];

// Starts a holder (bwrap, sleeping) whose namespaces are a sandbox: /usr
// of the host read-only, workDir as home, the etc files; its process and
// the sandbox's pid (as bwrap reports it, right after clone()).
export async function startHolder(workDir, home, etcFiles = ETC_FILES) {
  fs.mkdirSync(workDir, { recursive: true, mode: 0o755 });
  const args = ["--unshare-all", "--die-with-parent", "--info-fd", "3",
    "--ro-bind", "/usr", "/usr",
    "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
    "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
    "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
    "--bind", workDir, home, "--chdir", home];
  for (const f of etcFiles)
    args.push("--ro-bind-try", `/etc/${f}`, `/etc/${f}`);
  args.push("--", "/bin/sleep", "infinity");
  const holder = spawn("bwrap", args, {
    stdio: ["ignore", "ignore", "pipe", "pipe"], env: {},
  });
  let info = "", err = "";
  holder.stdio[3].on("data", (d) => { info += d; });
  holder.stderr.on("data", (d) => { err += d; });
  await new Promise((resolve, reject) => {
    holder.stdio[3].on("end", resolve);
    holder.on("error", reject);
    holder.on("exit", (code) =>
      reject(new Error(`bwrap exited (${code}): ${err.trim()}`)));
  });
  const nsPid = JSON.parse(info)["child-pid"];
  if (!nsPid) throw new Error(`bwrap gave no child pid: ${info}`);
  return { holder, nsPid };
}

// A double's sandbox: its namespaces held by bwrap (start), and the host
// paths of its paths, reached through the holder's root (so /tmp and the
// home both resolve), their symlinks followed inside that root.
export class HeldSandbox {
  constructor(id, workDir, home, etcFiles = ETC_FILES) {
    this.id = id;
    this.workDir = workDir;
    this.home = home;
    this.etcFiles = etcFiles;
    this.holder = null;
    this.nsPid = 0;
    this.sockets = new Set(); // the daemon's connections in flight
  }

  // Starts the holder and waits until bwrap reports the sandbox's pid.
  async start() {
    ({ holder: this.holder, nsPid: this.nsPid } = await startHolder(this.workDir, this.home, this.etcFiles));
  }

  hostPath(p, noFollowLast = false) {
    const root = `/proc/${this.nsPid}/root`;
    return path.join(root, resolveInRoot(root, p, noFollowLast));
  }
}

// The in-sandbox path `p` with its symlinks resolved inside `root` (a host
// directory); the last component is followed too unless `noFollowLast`.
// A missing component ends the walk: the rest is appended as it is. Unlike
// a daemon, which has the VM's own root to stay in, every symlink is
// followed inside the sandbox's root by hand, so a link to /etc names the
// sandbox's /etc and never the host's.
export function resolveInRoot(root, p, noFollowLast = false) {
  let todo = path.posix.resolve("/", p).split("/").filter(Boolean);
  let cur = "/";
  for (let hops = 0; todo.length; ) {
    const name = todo.shift();
    const next = path.posix.join(cur, name);
    let st;
    try {
      st = fs.lstatSync(path.join(root, next));
    } catch {
      return path.posix.join(next, ...todo);
    }
    if (st.isSymbolicLink() && !(noFollowLast && todo.length === 0)) {
      if (++hops > 40) throw new Error(`too many levels of symbolic links: ${p}`);
      const target = fs.readlinkSync(path.join(root, next));
      todo = path.posix.resolve(cur, target).split("/").filter(Boolean).concat(todo);
      cur = "/";
      continue;
    }
    cur = next;
  }
  return cur;
}

// --- the rigs' self-checks and the official SDKs' sessions ----------------------

// r, an answer Prism refused: its status, and what Prism reported (its one
// report, when only) matching pattern; the reports are then forgotten.
// control(method, path) calls the double's /_control/.
export async function assertRefused(r, status, control, pattern, only = false) {
  assert.equal(r.status, status);
  const v = await (await control("GET", "/_control/violations")).json();
  if (only) assert.equal(v.length, 1);
  assert.match(v[0]?.violations ?? "", pattern);
  await control("DELETE", "/_control/violations");
}

// A scripted session's steps: begin(name) names the step under way; run(main)
// runs it, prints passed(milliseconds) after it, and on a failure names the step.
export function session(passed = (ms) => `session passed in ${ms} ms`) {
  let step = "";
  const t0 = Date.now();
  return {
    begin(name) {
      step = name;
      process.stdout.write(`- ${name}\n`);
    },
    run(main) {
      main().then(() => {
        process.stdout.write(`${passed(Date.now() - t0)}\n`);
      }).catch((e) => {
        process.stderr.write(`FAIL at "${step}": ${e.stack || e}${e.cause ? `\ncaused by: ${e.cause.stack || e.cause}` : ""}\n`);
        process.exit(1);
      });
    },
  };
}

// `size` pseudo-random bytes, made as they are read, hashed into hash:
// next() gives the next chunk (at most 1 MiB), null at the end.
export function bigBytes(size, hash) {
  let left = size;
  let seed = 1;
  return () => {
    if (left === 0) return null;
    const n = Math.min(left, 1 << 20);
    const words = Buffer.alloc((n + 3) & ~3);
    for (let i = 0; i < words.length; i += 4) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      words.writeUInt32LE(seed, i);
    }
    const chunk = words.subarray(0, n);
    hash.update(chunk);
    left -= n;
    return chunk;
  };
}
