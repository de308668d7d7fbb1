// SPDX-License-Identifier: Apache-2.0
// A scripted session of the official e2b SDK against the doubles: create,
// commands (stdout, stderr, exit code, stdin, streaming, connect, kill,
// timeout, no network), files (write, read, list, mkdir, rename, remove, 64 MiB both
// ways streamed), metadata listing, set-timeout, kill. Each step asserts
// what E2B documents the SDK returns; the first failure ends the session.
// The SDK is pointed at the rig the way it is pointed at any self-hosted
// E2B: E2B_API_URL, E2B_SANDBOX_URL and E2B_API_KEY in the environment.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { Sandbox, CommandExitError, TimeoutError } from "e2b";
import { bigBytes, session } from "../../../../lib/tests/doubles/rest-double.js";

const BIG = 64 * 1024 * 1024 + 12345; // just over 64 MiB
const { begin, run } = session();

// A stream of `size` pseudo-random bytes, made as it is read, with its hash.
function bigStream(size, hash) {
  const next = bigBytes(size, hash);
  return new ReadableStream({
    pull(controller) {
      const chunk = next();
      if (chunk) controller.enqueue(new Uint8Array(chunk));
      else controller.close();
    },
  });
}

async function main() {
  const owner = `session-${process.pid}`;

  begin("create a sandbox from the base template, with metadata");
  const sbx = await Sandbox.create("base", { timeoutMs: 120_000, metadata: { "sandboxio.owner": owner } });
  assert.match(sbx.sandboxId, /^[a-z0-9]+$/);

  begin("a command's stdout, stderr and exit code 0");
  let r = await sbx.commands.run("echo out; echo err >&2");
  assert.equal(r.exitCode, 0);
  assert.equal(r.stdout, "out\n");
  assert.equal(r.stderr, "err\n");

  begin("a failing command: CommandExitError with its exit code and output");
  await assert.rejects(sbx.commands.run("echo partial; exit 3"), (e) => {
    assert.ok(e instanceof CommandExitError, `not a CommandExitError: ${e}`);
    assert.equal(e.exitCode, 3);
    assert.equal(e.stdout, "partial\n");
    assert.equal(e.error, "exit status 3");
    return true;
  });

  begin("environment and working directory");
  await sbx.files.makeDir("/home/user/wd");
  r = await sbx.commands.run('echo "$GREETING from $(pwd) as $USER"', { envs: { GREETING: "hello" }, cwd: "/home/user/wd" });
  assert.equal(r.stdout, "hello from /home/user/wd as user\n");

  begin("output streamed to callbacks as it arrives");
  const seen = [];
  r = await sbx.commands.run("for i in 1 2 3; do echo line$i; sleep 0.2; done",
    { onStdout: (d) => seen.push([Date.now(), d]) });
  assert.equal(seen.map(([, d]) => d).join(""), "line1\nline2\nline3\n");
  assert.ok(seen.length >= 2, `output came in ${seen.length} piece(s), not as it was written`);

  begin("stdin: sendStdin, closeStdin, the command sees EOF");
  let h = await sbx.commands.run("cat; echo done", { background: true, stdin: true });
  await sbx.commands.sendStdin(h.pid, "hello ");
  await sbx.commands.sendStdin(h.pid, "stdin\n");
  await sbx.commands.closeStdin(h.pid);
  r = await h.wait();
  assert.equal(r.stdout, "hello stdin\ndone\n");

  begin("connect to a running command from a second handle");
  h = await sbx.commands.run("sleep 1.5; echo connected", { background: true });
  const again = await sbx.commands.connect(h.pid);
  r = await again.wait();
  assert.equal(r.stdout, "connected\n");
  assert.equal((await h.wait()).stdout, "connected\n");

  begin("list running commands; kill one (SIGKILL)");
  h = await sbx.commands.run("sleep 30", { background: true });
  const listed = await sbx.commands.list();
  assert.ok(listed.some((p) => p.pid === h.pid && p.cmd === "/bin/bash"), JSON.stringify(listed));
  assert.equal(await h.kill(), true);
  await assert.rejects(h.wait(), (e) => {
    assert.ok(e instanceof CommandExitError, `not a CommandExitError: ${e}`);
    assert.equal(e.error, "signal: killed");
    return true;
  });
  assert.ok(!(await sbx.commands.list()).some((p) => p.pid === h.pid));

  begin("a command past its timeout: TimeoutError, and the command is gone");
  await assert.rejects(sbx.commands.run("sleep 20", { timeoutMs: 1000 }), (e) => {
    assert.ok(e instanceof TimeoutError, `not a TimeoutError: ${e}`);
    return true;
  });
  await new Promise((res) => setTimeout(res, 300));
  assert.deepEqual((await sbx.commands.list()).filter((p) => p.args.includes("sleep 20")), []);

  begin("no network in the sandbox");
  r = await sbx.commands.run("(exec 3<>/dev/tcp/1.1.1.1/80) 2>&1 && echo reached || echo unreachable");
  assert.equal(r.stdout.trim().split("\n").pop(), "unreachable");

  begin("files: write, read, and the command sees the file");
  const info = await sbx.files.write("notes/hello.txt", "hi there\n");
  assert.equal(info.path, "/home/user/notes/hello.txt");
  assert.equal(info.name, "hello.txt");
  assert.equal(await sbx.files.read("/home/user/notes/hello.txt"), "hi there\n");
  r = await sbx.commands.run("cat notes/hello.txt");
  assert.equal(r.stdout, "hi there\n");

  begin("files: list, exists, getInfo, rename, remove");
  await sbx.files.makeDir("notes/sub");
  const entries = await sbx.files.list("notes");
  assert.deepEqual(entries.map((e) => [e.name, e.type]), [["hello.txt", "file"], ["sub", "dir"]]);
  assert.equal(entries[0].size, 9);
  assert.equal(entries[0].path, "/home/user/notes/hello.txt");
  const fi = await sbx.files.getInfo("notes/hello.txt");
  assert.equal(fi.type, "file");
  assert.equal(await sbx.files.exists("notes/missing"), false);
  await sbx.files.rename("notes/hello.txt", "notes/sub/moved.txt");
  assert.equal(await sbx.files.read("notes/sub/moved.txt"), "hi there\n");
  await sbx.files.remove("notes");
  assert.equal(await sbx.files.exists("notes"), false);

  begin(`files: ${BIG} bytes written as a stream, checked in the sandbox, read back as a stream`);
  const up = crypto.createHash("sha256");
  await sbx.files.write("big.bin", bigStream(BIG, up));
  const upHex = up.digest("hex");
  r = await sbx.commands.run("stat -c %s big.bin; sha256sum big.bin");
  assert.equal(r.stdout, `${BIG}\n${upHex}  big.bin\n`);
  const down = crypto.createHash("sha256");
  let got = 0;
  for await (const chunk of await sbx.files.read("big.bin", { format: "stream" })) {
    down.update(chunk);
    got += chunk.length;
  }
  assert.equal(got, BIG);
  assert.equal(down.digest("hex"), upHex);

  begin("list sandboxes by metadata; set the timeout; get the info");
  const paginator = Sandbox.list({ query: { metadata: { "sandboxio.owner": owner } } });
  const found = await paginator.nextItems();
  assert.deepEqual(found.map((s) => s.sandboxId), [sbx.sandboxId]);
  await sbx.setTimeout(60_000);
  const detail = await sbx.getInfo();
  assert.equal(detail.metadata["sandboxio.owner"], owner);
  assert.ok(detail.endAt.getTime() - Date.now() <= 60_000);
  assert.equal(await sbx.isRunning(), true);

  begin("kill the sandbox: gone from the list, its envd unreachable");
  await sbx.kill();
  assert.deepEqual(await Sandbox.list({ query: { metadata: { "sandboxio.owner": owner } } }).nextItems(), []);
  assert.equal(await sbx.isRunning(), false);
  await assert.rejects(sbx.commands.run("true"));
}

run(main);
