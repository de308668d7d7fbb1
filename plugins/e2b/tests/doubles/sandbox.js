// SPDX-License-Identifier: Apache-2.0
// One sandbox of the doubles: a bubblewrap namespace sandbox (its own
// mount, pid, net, ipc, uts and cgroup namespaces, no network but its own
// loopback) whose root is the host's /usr read-only, a private /tmp and a
// work dir of its own mounted as the E2B user's home, /home/user.
//
// A holder process keeps the namespaces alive; every command of the sandbox
// is entered into them with nsenter, so the commands of one sandbox share
// its files, its processes and its (absent) network, as in an E2B VM.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { HOME, USER, resolveInRoot } from "./paths.js";

export { HOME };
const PATH_IN_SANDBOX = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// The parts of the host's /etc a shell needs; the rest of /etc stays out.
const ETC_FILES = ["alternatives", "ld.so.cache", "nsswitch.conf", "profile",
  "bash.bashrc", "passwd", "group", "localtime"];

export class Sandbox {
  constructor(id, workDir) {
    this.id = id;
    this.workDir = workDir;
    this.holder = null;
    this.nsPid = 0;
    this.processes = new Map(); // pid -> Proc
    this.sockets = new Set(); // envd connections in flight
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
    // bwrap reports the pid right after clone(), before the child has made
    // its mounts; E2B answers create only once envd can run commands, so
    // wait until the work dir is mounted as the home inside.
    const want = fs.statSync(this.workDir).ino;
    for (let i = 0; ; i++) {
      try {
        if (fs.statSync(`/proc/${this.nsPid}/root${HOME}`).ino === want) break;
      } catch { /* not yet */ }
      if (i >= 500) throw new Error("the sandbox's mounts were not ready within 5 s");
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  // The host path of a path inside the sandbox, reached through the
  // holder's root (so /tmp and /home/user both resolve), its symlinks
  // followed inside that root.
  hostPath(p, noFollowLast = false) {
    const root = `/proc/${this.nsPid}/root`;
    return path.join(root, resolveInRoot(root, p, noFollowLast));
  }

  // Runs argv inside the sandbox; envd's own environment rules (PATH,
  // HOME, USER, LOGNAME, then the request's envs).
  spawn(cmd, args, { cwd, envs, stdin }) {
    const env = { PATH: PATH_IN_SANDBOX, HOME, USER, LOGNAME: USER, ...envs };
    // nsenter enters the work dir itself (--wdns, inside the new root): no
    // shell between it and the command, as none is between envd and its.
    const child = spawn("nsenter",
      ["-t", String(this.nsPid), "--mount", "--uts", "--ipc", "--net",
        "--pid", "--cgroup", "--root", `--wdns=${cwd}`, "--", cmd, ...args],
      { stdio: [stdin ? "pipe" : "ignore", "pipe", "pipe"], env });
    return child;
  }

  // The host pid of the command nsenter forked (its only child), so a
  // signal reaches the command itself and nothing else, as envd's does.
  static commandPid(nsenterPid) {
    try {
      const kids = fs.readFileSync(
        `/proc/${nsenterPid}/task/${nsenterPid}/children`, "utf8").trim();
      return kids ? Number(kids.split(/\s+/)[0]) : 0;
    } catch {
      return 0;
    }
  }

  // Kills everything: the pid namespace's init takes its processes along.
  destroy() {
    // The VM is gone: its connections drop first, no end event reaches them.
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    for (const p of this.processes.values()) p.detach();
    this.processes.clear();
    if (this.nsPid) {
      try { process.kill(this.nsPid, "SIGKILL"); } catch { /* gone */ }
    }
    if (this.holder && this.holder.exitCode === null)
      this.holder.kill("SIGKILL");
    this.nsPid = 0;
    fs.rmSync(this.workDir, { recursive: true, force: true });
  }
}
