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
import { HOME, USER } from "./paths.js";
import { HeldSandbox } from "../../../../lib/tests/doubles/rest-double.js";

export { HOME };
const PATH_IN_SANDBOX = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

export class Sandbox extends HeldSandbox {
  constructor(id, workDir) {
    super(id, workDir, HOME);
    this.processes = new Map(); // pid -> Proc
  }

  // Starts the holder and waits until its mounts are made.
  async start() {
    await super.start();
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
