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
import { HOME, USER } from "./paths.js";
import { ETC_FILES, HeldSandbox } from "../../../../lib/tests/doubles/rest-double.js";

export { HOME };
const PATH_IN_SANDBOX = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// The parts of the host's /etc a shell needs (the rig's base), and /etc/shells.
const ETC = [...ETC_FILES, "shells"];

export class Sandbox extends HeldSandbox {
  constructor(id, workDir) {
    super(id, workDir, HOME, ETC);
    this.children = new Set(); // nsenter processes of this sandbox
  }

  // Becomes `spare`, a sandbox started ahead: its namespaces and work dir.
  takeOver(spare) {
    Object.assign(this, { holder: spare.holder, nsPid: spare.nsPid, workDir: spare.workDir });
    spare.holder = null;
    spare.nsPid = 0;
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
