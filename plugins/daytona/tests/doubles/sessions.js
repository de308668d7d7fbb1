// SPDX-License-Identifier: Apache-2.0
// The toolbox's sessions, as Daytona's daemon runs them (daytonaio/daytona
// apps/daemon/pkg/session @ b5a5d9e78, v0.190.0, 2026-06-23; see README.md):
//
// - a session is one long-lived shell (bash) in a process group of its
//   own; each command is handed to it on its stdin, wrapped so that
//   the command's stdout and stderr go through two FIFOs to two labellers
//   that copy them LINE BY LINE into one log file, each line prefixed with
//   \x01\x01\x01 (stdout) or \x02\x02\x02 (stderr) — so a last line without
//   a newline gets one — and the exit code goes to a file of its own once
//   both labellers have drained;
// - the command reads its stdin from a third FIFO: a synchronous command
//   sees EOF at once, an asynchronous one gets a writer that holds the FIFO
//   open until the command ends, so the input endpoint can feed it (the
//   daemon appends a newline to input that lacks one and echoes it into the
//   log as stdout unless suppressInputEcho); such a command never sees EOF;
// - deleting a session sends SIGTERM to its process group and to every
//   descendant, then SIGKILL after the grace period (5 s by default).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const STDOUT_PREFIX = Buffer.from([1, 1, 1]);
export const STDERR_PREFIX = Buffer.from([2, 2, 2]);
const CONFIG_DIR = "/tmp/.daytona"; // the daemon's configDir, inside the sandbox
const GRACE_MS = 5000;

export class HttpError extends Error {
  constructor(status, message, code) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// The wrapper a command is run in; the daemon's takes the same steps (its
// text is not copied). %DIR%: the command's dir; %HOLD%: what holds the
// input FIFO's write end (nothing for a synchronous command).
const WRAPPER = String.raw`
d=%DIR%
rm -f "$d/out.pipe" "$d/err.pipe" "$d/input.pipe" && mkfifo "$d/out.pipe" "$d/err.pipe" "$d/input.pipe" || exit 1
( while IFS= read -r l || [ -n "$l" ]; do printf '\001\001\001%s\n' "$l"; done < "$d/out.pipe" ) >> "$d/output.log" & lo=$!
( while IFS= read -r l || [ -n "$l" ]; do printf '\002\002\002%s\n' "$l"; done < "$d/err.pipe" ) >> "$d/output.log" & le=$!
%HOLD%
hold=$!
{ . "$d/cmd.sh"; } < "$d/input.pipe" > "$d/out.pipe" 2> "$d/err.pipe"
ec=$?
kill "$hold" 2>/dev/null; wait "$hold" 2>/dev/null
wait "$lo" "$le"
echo "$ec" >> "$d/exit_code"
rm -f "$d/out.pipe" "$d/err.pipe" "$d/input.pipe"
`;

function quote(s) {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

// Splits a log into stdout and stderr by its markers (the daemon's
// DemuxLogBytes): bytes before the first marker belong to neither.
export function demux(log) {
  const out = [], err = [];
  let cur = null, from = 0;
  for (let i = 0; i + 3 <= log.length; ) {
    const isOut = log[i] === 1 && log[i + 1] === 1 && log[i + 2] === 1;
    const isErr = log[i] === 2 && log[i + 1] === 2 && log[i + 2] === 2;
    if (isOut || isErr) {
      if (cur) cur.push(log.subarray(from, i));
      cur = isOut ? out : err;
      i += 3;
      from = i;
    } else i++;
  }
  if (cur) cur.push(log.subarray(from));
  return { stdout: Buffer.concat(out), stderr: Buffer.concat(err) };
}

// The combined output, in the log's order: the markers dropped.
export function stripMarkers(log) {
  const parts = [];
  let from = 0;
  for (let i = 0; i + 3 <= log.length; ) {
    if ((log[i] === 1 && log[i + 1] === 1 && log[i + 2] === 1) ||
        (log[i] === 2 && log[i + 1] === 2 && log[i + 2] === 2)) {
      parts.push(log.subarray(from, i));
      i += 3;
      from = i;
    } else i++;
  }
  parts.push(log.subarray(from));
  return Buffer.concat(parts);
}

class Command {
  constructor(id, command, suppressInputEcho) {
    this.id = id;
    this.command = command;
    this.suppressInputEcho = suppressInputEcho;
    this.exitCode = undefined;
  }
}

export class Session {
  constructor(sb, id) {
    this.sb = sb;
    this.id = id;
    this.commands = new Map();
    this.deleted = false;
    this.dir = path.posix.join(CONFIG_DIR, "sessions", id);
    this.shell = sb.spawn(["/bin/bash"], { stdin: true, group: true });
    this.shell.stdin.on("error", () => { /* the shell is gone */ });
    this.shell.stdout.resume();
    this.shell.stderr.resume();
    this.exited = false;
    this.shell.on("exit", () => { this.exited = true; });
    fs.mkdirSync(sb.hostPath(this.dir), { recursive: true, mode: 0o755 });
  }

  cmdDir(cmd) {
    return path.posix.join(this.dir, cmd.id);
  }

  host(cmd, name) {
    return this.sb.hostPath(path.posix.join(this.cmdDir(cmd), name));
  }

  get(cmdId) {
    const cmd = this.commands.get(cmdId);
    if (!cmd) throw new HttpError(404, "command not found", "NOT_FOUND");
    if (cmd.exitCode === undefined) {
      try {
        const text = fs.readFileSync(this.host(cmd, "exit_code"), "utf8").trim();
        if (text) cmd.exitCode = Number.parseInt(text, 10);
      } catch { /* still running */ }
    }
    return cmd;
  }

  record(cmd) {
    const out = { id: cmd.id, command: cmd.command };
    if (cmd.exitCode !== undefined) out.exitCode = cmd.exitCode;
    return out;
  }

  // Starts `command`; resolves with the command at once (async) or once
  // its exit code is written.
  async execute(command, async, suppressInputEcho) {
    const cmd = new Command(crypto.randomUUID(), command, !!suppressInputEcho);
    this.commands.set(cmd.id, cmd);
    const dir = this.sb.hostPath(this.cmdDir(cmd));
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(dir, "output.log"), "");
    fs.writeFileSync(path.join(dir, "cmd.sh"), command, { mode: 0o600 });
    const hold = async
      ? `while :; do sleep 3600; done > "$d/input.pipe" &`
      : `cat /dev/null > "$d/input.pipe" &`;
    const script = WRAPPER.replace("%DIR%", quote(this.cmdDir(cmd))).replace("%HOLD%", hold);
    // A command that ran `exit` ended the session's shell: the daemon's
    // write to its stdin then fails (EPIPE).
    if (this.exited) throw new HttpError(400, "failed to write command: write |1: broken pipe", "BAD_REQUEST");
    this.shell.stdin.write(`{\n${script}\n}\n`);
    if (async) return cmd;
    for (;;) {
      if (this.deleted) {
        cmd.exitCode = 1;
        throw new HttpError(400, "session cancelled", "BAD_REQUEST");
      }
      if (this.get(cmd.id).exitCode !== undefined) return cmd;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  // Whether input to cmdId can no longer reach a reader: the command has
  // an exit code, or it never will (its session's shell exited, or the
  // session or the command is gone). The front door's "after-exit" fault
  // holds an input until then.
  over(cmdId) {
    if (this.deleted || this.exited || !this.commands.has(cmdId)) return true;
    return this.get(cmdId).exitCode !== undefined;
  }

  log(cmd) {
    try {
      return fs.readFileSync(this.host(cmd, "output.log"));
    } catch (e) {
      if (e.code === "ENOENT") throw new HttpError(404, e.message, "NOT_FOUND");
      throw new HttpError(400, e.message, "BAD_REQUEST");
    }
  }

  async input(cmdId, data) {
    if (this.exited) throw new HttpError(410, "session process has exited", "GONE");
    const cmd = this.get(cmdId);
    if (cmd.exitCode !== undefined)
      throw new HttpError(410, `command has already completed with exit code ${cmd.exitCode}`, "COMMAND_ALREADY_COMPLETED");
    if (!data.endsWith("\n")) data += "\n";
    // The daemon holds an async command's stdin from the moment exec
    // answers; here the session's shell makes the command's FIFO a moment
    // later, so input that comes first waits for it rather than fail. The
    // FIFO is opened without blocking: a blocking open with no reader left
    // (the command has just ended) would never return, and would hold one
    // of the few threads every file call of the double needs.
    let fh;
    for (let waited = 0; ; waited += 10) {
      try {
        fh = await fs.promises.open(this.host(cmd, "input.pipe"),
                                    fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
        break;
      } catch (e) {
        // No reader (yet, or any more): the answer comes from the command's
        // state, not from when its reader went away. A command that has
        // ended is 410, and so is one whose session's shell has exited (it
        // will never have an exit code), as the daemon's first checks say.
        if (this.get(cmdId).exitCode !== undefined)
          throw new HttpError(410, `command has already completed with exit code ${cmd.exitCode}`, "COMMAND_ALREADY_COMPLETED");
        if (this.exited) throw new HttpError(410, "session process has exited", "GONE");
        if ((e.code !== "ENOENT" && e.code !== "ENXIO") || waited >= 10000)
          throw new HttpError(500, `failed to open input pipe: ${e.message}`, "INTERNAL_SERVER_ERROR");
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    try {
      // A full FIFO answers EAGAIN: wait for the command to read.
      for (let buf = Buffer.from(data); buf.length; ) {
        try {
          const { bytesWritten } = await fh.write(buf);
          buf = buf.subarray(bytesWritten);
        } catch (e) {
          // The command closed its stdin: the daemon's held pipe would have taken it.
          if (e.code === "EPIPE") return;
          if (e.code !== "EAGAIN") throw e;
          if (this.get(cmdId).exitCode !== undefined || this.exited) return;
          await new Promise((r) => setTimeout(r, 10));
        }
      }
    } finally {
      await fh.close();
    }
    if (!cmd.suppressInputEcho)
      fs.appendFileSync(this.host(cmd, "output.log"), Buffer.concat([STDOUT_PREFIX, Buffer.from(data)]));
  }

  // SIGTERM to the group and every descendant, SIGKILL after the grace
  // period if any is left; then the session's files go.
  async delete() {
    this.deleted = true;
    const pid = this.shell.pid;
    const signal = (sig) => {
      try { process.kill(-pid, sig); } catch { /* gone */ }
      signalTree(pid, sig);
    };
    signal("SIGTERM");
    const until = Date.now() + GRACE_MS;
    while (Date.now() < until && descendants(pid).length)
      await new Promise((r) => setTimeout(r, 100));
    signal("SIGKILL");
    fs.rmSync(this.sb.hostPath(this.dir), { recursive: true, force: true });
  }
}

function descendants(pid) {
  let kids = [];
  try {
    for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
      const text = fs.readFileSync(`/proc/${pid}/task/${t}/children`, "utf8").trim();
      if (text) kids = kids.concat(text.split(/\s+/).map(Number));
    }
  } catch { /* gone */ }
  return kids.flatMap((k) => [k, ...descendants(k)]);
}

function signalTree(pid, sig) {
  for (const k of descendants(pid)) {
    try { process.kill(k, sig); } catch { /* gone */ }
  }
}
