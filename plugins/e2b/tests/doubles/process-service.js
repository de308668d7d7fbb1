// SPDX-License-Identifier: Apache-2.0
// envd's process.Process service over a Sandbox, following envd's source
// (see README.md, "What the doubles rely on"): a command's output goes to
// every stream attached to it (Start, Connect); a signal or the request's
// timeout reaches the command's own process only; the end event carries Go's
// os.ProcessState rendering of the exit.
import { Code, ConnectError } from "@connectrpc/connect";
import { Signal } from "./gen/process_pb.js";
import { Sandbox } from "./sandbox.js";
import { HOME, resolvePath } from "./paths.js";
import { requestState } from "./request-state.js";
import fs from "node:fs";

// One running (or finished) command.
class Proc {
  constructor(sb, child, config, tag) {
    this.sb = sb;
    this.child = child;
    this.pid = child.pid;
    this.config = config;
    this.tag = tag;
    this.subscribers = new Set();
    this.end = null;
    this.outputOpen = 2;
    this.exited = null;
    child.stdout.on("data", (d) => this.emit(dataEvent("stdout", d)));
    child.stderr.on("data", (d) => this.emit(dataEvent("stderr", d)));
    child.stdout.on("close", () => this.outputClosed());
    child.stderr.on("close", () => this.outputClosed());
    if (child.stdin) child.stdin.on("error", () => { /* command gone */ });
    child.on("exit", (code, signal) => { this.exited = { code, signal }; this.finish(); });
  }

  emit(event) {
    for (const s of this.subscribers) s.push(event);
  }

  outputClosed() {
    this.outputOpen--;
    this.finish();
  }

  // envd waits for the output pipes to close (or for a kill to cancel
  // them) and then for the process: only then the end event goes out.
  finish() {
    if (this.end || !this.exited || this.outputOpen > 0) return;
    this.end = endEvent(this.exited);
    this.sb.processes.delete(this.pid);
    this.emit({ event: { case: "end", value: this.end } });
    for (const s of this.subscribers) s.close();
  }

  // As envd's handler.SendSignal: SIGKILL and SIGTERM stop the output
  // reading too; the signal itself goes to the command's pid only.
  signal(sig) {
    if (sig === "SIGKILL" || sig === "SIGTERM") {
      this.child.stdout.destroy();
      this.child.stderr.destroy();
    }
    const pid = Sandbox.commandPid(this.pid);
    if (!pid) throw new ConnectError("process not started", Code.Internal);
    process.kill(pid, sig);
  }

  detach() {
    for (const s of this.subscribers) s.close();
  }

  subscribe() {
    const sub = new Subscriber(() => this.subscribers.delete(sub));
    this.subscribers.add(sub);
    return sub;
  }
}

// An async queue of events for one attached stream.
class Subscriber {
  constructor(onDone) {
    this.queue = [];
    this.waiting = null;
    this.closed = false;
    this.onDone = onDone;
  }
  push(ev) {
    this.queue.push(ev);
    this.wake();
  }
  close() {
    this.closed = true;
    this.wake();
  }
  wake() {
    if (this.waiting) { const w = this.waiting; this.waiting = null; w(); }
  }
  // Yields events until closed; a null every `keepaliveMs` without one.
  async *events(signal, keepaliveMs) {
    try {
      for (;;) {
        while (this.queue.length) yield this.queue.shift();
        if (this.closed || signal.aborted) return;
        const got = await new Promise((resolve) => {
          const done = (v) => {
            clearTimeout(timer);
            signal.removeEventListener("abort", onAbort);
            this.waiting = null;
            resolve(v);
          };
          const onAbort = () => done("abort");
          const timer = keepaliveMs ? setTimeout(() => done("keepalive"), keepaliveMs) : undefined;
          signal.addEventListener("abort", onAbort, { once: true });
          this.waiting = () => done("event");
        });
        if (got === "keepalive") yield null;
      }
    } finally {
      this.onDone();
    }
  }
}

function dataEvent(stream, chunk) {
  return { event: { case: "data", value: { output: { case: stream, value: new Uint8Array(chunk) } } } };
}

// Go's (*os.ProcessState).String() and ExitCode(): -1 and "signal: killed"
// for a signal; envd sets `error` to cmd.Wait()'s error text (none on 0).
const GO_SIGNAL_NAMES = { SIGKILL: "killed", SIGTERM: "terminated", SIGINT: "interrupt",
  SIGHUP: "hangup", SIGPIPE: "broken pipe", SIGSEGV: "segmentation fault", SIGABRT: "aborted" };
function endEvent({ code, signal }) {
  if (signal) {
    const status = `signal: ${GO_SIGNAL_NAMES[signal] || signal}`;
    return { exitCode: -1, exited: false, status, error: status };
  }
  const status = `exit status ${code}`;
  return code === 0 ? { exitCode: 0, exited: true, status }
    : { exitCode: code, exited: true, status, error: status };
}

function findProc(sb, selector) {
  let proc;
  if (selector?.selector.case === "pid") proc = sb.processes.get(selector.selector.value);
  else if (selector?.selector.case === "tag")
    proc = [...sb.processes.values()].find((p) => p.tag === selector.selector.value);
  if (!proc) throw new ConnectError(`process with ${selector?.selector.case} ${selector?.selector.value} not found`, Code.NotFound);
  return proc;
}

function keepaliveMs(ctx) {
  const s = Number(ctx.requestHeader.get("keepalive-ping-interval"));
  return s > 0 ? s * 1000 : 0;
}

async function* stream(proc, ctx, withStart) {
  const sub = proc.subscribe();
  if (withStart) {
    yield { event: { event: { case: "start", value: { pid: proc.pid } } } };
    requestState()?.afterEvent?.();
  }
  if (proc.end) {
    yield { event: { event: { case: "end", value: proc.end } } };
    return;
  }
  for await (const ev of sub.events(ctx.signal, keepaliveMs(ctx))) {
    yield { event: ev ?? { event: { case: "keepalive", value: {} } } };
    requestState()?.afterEvent?.(ev);
  }
  // envd returns the request context's error when it ends first (its
  // deadline, Connect-Timeout-Ms): the stream ends with that error, not {}.
  if (!proc.end && ctx.signal.aborted) {
    const why = ctx.signal.reason;
    throw why instanceof ConnectError ? why : new ConnectError(String(why ?? "canceled"), Code.Canceled);
  }
}

export function processService(sandboxOf) {
  return {
    async *start(req, ctx) {
      const sb = sandboxOf(ctx);
      if (req.pty) throw new ConnectError("the test double has no PTY support", Code.Unimplemented);
      const cfg = req.process;
      const cwd = resolvePath(cfg.cwd || HOME);
      if (!fs.existsSync(sb.hostPath(cwd)))
        throw new ConnectError(`cwd '${cwd}' does not exist`, Code.InvalidArgument);
      const child = sb.spawn(cfg.cmd, cfg.args, { cwd, envs: cfg.envs, stdin: req.stdin !== false });
      await new Promise((resolve, reject) => {
        child.once("spawn", resolve);
        child.once("error", (e) => reject(new ConnectError(`error starting process: ${e.message}`, Code.InvalidArgument)));
      });
      const proc = new Proc(sb, child, { cmd: cfg.cmd, args: cfg.args, envs: cfg.envs, cwd: cfg.cwd }, req.tag);
      sb.processes.set(proc.pid, proc);
      // envd's request timeout (Connect-Timeout-Ms) bounds the process:
      // exec.CommandContext kills it (its pid alone) when it passes.
      const timeout = ctx.timeoutMs();
      const timer = timeout ? setTimeout(() => { try { proc.signal("SIGKILL"); } catch { /* ended */ } }, timeout) : null;
      child.on("exit", () => { if (timer) clearTimeout(timer); });
      yield* stream(proc, ctx, true);
    },

    async *connect(req, ctx) {
      yield* stream(findProc(sandboxOf(ctx), req.process), ctx, true);
    },

    async list(_req, ctx) {
      const sb = sandboxOf(ctx);
      return { processes: [...sb.processes.values()].map((p) => ({ pid: p.pid, tag: p.tag, config: p.config })) };
    },

    async sendInput(req, ctx) {
      writeInput(findProc(sandboxOf(ctx), req.process), req.input);
      return {};
    },

    async streamInput(reqs, ctx) {
      let proc = null;
      for await (const r of reqs) {
        if (r.event.case === "start") proc = findProc(sandboxOf(ctx), r.event.value.process);
        else if (r.event.case === "data") {
          if (!proc) throw new ConnectError("no start event", Code.FailedPrecondition);
          writeInput(proc, r.event.value.input);
        }
      }
      return {};
    },

    async closeStdin(req, ctx) {
      const proc = findProc(sandboxOf(ctx), req.process);
      if (!proc.child.stdin) throw new ConnectError("stdin not enabled or closed", Code.Unknown);
      proc.child.stdin.end();
      proc.child.stdin = null;
      return {};
    },

    async sendSignal(req, ctx) {
      const proc = findProc(sandboxOf(ctx), req.process);
      const sig = { [Signal.SIGKILL]: "SIGKILL", [Signal.SIGTERM]: "SIGTERM" }[req.signal];
      if (!sig) throw new ConnectError(`invalid signal: ${req.signal}`, Code.Unimplemented);
      try {
        proc.signal(sig);
      } catch (e) {
        if (e instanceof ConnectError) throw e;
        throw new ConnectError(`error sending signal: ${e.message}`, Code.Internal);
      }
      return {};
    },

    async update() {
      throw new ConnectError("the test double has no PTY support", Code.Unimplemented);
    },
  };
}

function writeInput(proc, input) {
  if (input?.input.case !== "stdin")
    throw new ConnectError(`invalid input type ${input?.input.case}`, Code.Unimplemented);
  if (!proc.child.stdin)
    throw new ConnectError("error writing to stdin: stdin not enabled or closed", Code.Internal);
  proc.child.stdin.write(Buffer.from(input.input.value));
}
