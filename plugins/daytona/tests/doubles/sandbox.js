// SPDX-License-Identifier: Apache-2.0
// One sandbox of the doubles: a bubblewrap namespace sandbox (its own
// mount, pid, net, ipc, uts and cgroup namespaces, no network but its own
// loopback) whose root is the host's /usr read-only, a private /tmp and a
// work dir of its own mounted as the Daytona user's home, /home/daytona.
//
// A holder process keeps the namespaces alive; every command of the sandbox
// is entered into them with nsenter, so the commands of one sandbox share
// its files, its processes and its (absent) network, as in a Daytona
// sandbox.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { HOME, USER, resolveInRoot } from "./paths.js";

export { HOME };
const PATH_IN_SANDBOX = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// The parts of the host's /etc a shell needs; the rest of /etc stays out.
const ETC_FILES = ["alternatives", "ld.so.cache", "nsswitch.conf", "profile",
  "bash.bashrc", "passwd", "group", "localtime", "shells"];

export class Sandbox {
  constructor(id, workDir) {
    this.id = id;
    this.workDir = workDir;
    this.holder = null;
    this.nsPid = 0;
    this.children = new Set(); // nsenter processes of this sandbox
    this.sockets = new Set(); // toolbox connections in flight
  }

  // Starts the holder and waits until bwrap reports the sandbox's pid.
  async start() {
    fs.mkdirSync(this.workDir, { recursive: true, mode: 0o755 });
    const args = ["--unshare-all", "--die-with-parent", "--info-fd", "3",
      "--ro-bind", "/usr", "/usr",
      "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
      "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
      "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
      "--bind", this.workDir, HOME, "--chdir", HOME];
    for (const f of ETC_FILES)
      args.push("--ro-bind-try", `/etc/${f}`, `/etc/${f}`);
    args.push("--", "/bin/sleep", "infinity");
    this.holder = spawn("bwrap", args, {
      stdio: ["ignore", "ignore", "pipe", "pipe"], env: {},
    });
    let info = "", err = "";
    this.holder.stdio[3].on("data", (d) => { info += d; });
    this.holder.stderr.on("data", (d) => { err += d; });
    await new Promise((resolve, reject) => {
      this.holder.stdio[3].on("end", resolve);
      this.holder.on("error", reject);
      this.holder.on("exit", (code) =>
        reject(new Error(`bwrap exited (${code}): ${err.trim()}`)));
    });
    this.nsPid = JSON.parse(info)["child-pid"];
    if (!this.nsPid) throw new Error(`bwrap gave no child pid: ${info}`);
  }

  // Becomes `spare`, a sandbox started ahead: its namespaces and work dir.
  takeOver(spare) {
    Object.assign(this, { holder: spare.holder, nsPid: spare.nsPid, workDir: spare.workDir });
    spare.holder = null;
    spare.nsPid = 0;
  }

  // The host path of a path inside the sandbox, reached through the
  // holder's root (so /tmp and /home/daytona both resolve), its symlinks
  // followed inside that root.
  hostPath(p, noFollowLast = false) {
    const root = `/proc/${this.nsPid}/root`;
    return path.join(root, resolveInRoot(root, p, noFollowLast));
  }

  // Runs argv inside the sandbox, in the work dir unless `cwd` says
  // otherwise, with the daemon's environment (PATH, HOME, USER) and `env`.
  // `group`: the process gets a process group of its own (nsenter leads
  // it, the command inside inherits it), so the whole group can be
  // signalled as the daemon signals a session's shell.
  spawn(argv, { cwd = HOME, env = {}, stdin = false, group = false } = {}) {
    const child = spawn("nsenter",
      ["-t", String(this.nsPid), "--mount", "--uts", "--ipc", "--net",
        "--pid", "--cgroup", "--root", "--wdns=/", "--",
        "/bin/sh", "-c", 'cd -- "$0" || exit 1; exec "$@"', cwd, ...argv],
      { stdio: [stdin ? "pipe" : "ignore", "pipe", "pipe"], detached: group,
        env: { PATH: PATH_IN_SANDBOX, HOME, USER, LOGNAME: USER, ...env } });
    this.children.add(child);
    child.on("exit", () => this.children.delete(child));
    return child;
  }

  // Kills everything: the pid namespace's init takes its processes along.
  destroy() {
    // The sandbox is gone: its connections drop first.
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (this.nsPid) {
      try { process.kill(this.nsPid, "SIGKILL"); } catch { /* gone */ }
    }
    for (const c of this.children) {
      try { c.kill("SIGKILL"); } catch { /* gone */ }
    }
    if (this.holder && this.holder.exitCode === null)
      this.holder.kill("SIGKILL");
    this.nsPid = 0;
    fs.rmSync(this.workDir, { recursive: true, force: true });
  }
}
