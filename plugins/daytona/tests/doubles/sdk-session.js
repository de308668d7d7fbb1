// SPDX-License-Identifier: Apache-2.0
// A scripted session of the official @daytonaio/sdk against the doubles:
// create (snapshot, labels, env), process execute, session commands
// (synchronous with split output, asynchronous with logs followed,
// input, the command's record), files (upload, download, list, folder,
// info, delete; 64 MiB streamed both ways), list by label, delete. Each
// step asserts what Daytona documents the SDK returns; the first failure
// ends the session. The SDK is pointed at the rig the way it is pointed at
// any self-hosted Daytona: DAYTONA_API_URL and DAYTONA_API_KEY in the
// environment; it runs with polling (useDeprecatedPolling), so its
// realtime event socket is not used.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { Readable } from "node:stream";
import { Daytona, DaytonaNotFoundError } from "@daytonaio/sdk";
import { bigBytes, session } from "../../../../lib/tests/doubles/rest-double.js";

const BIG = 64 * 1024 * 1024 + 12345; // just over 64 MiB
const { begin, run } = session();

// A stream of `size` pseudo-random bytes, made as it is read, with its hash.
function bigStream(size, hash) {
  const next = bigBytes(size, hash);
  return new Readable({
    read() {
      this.push(next());
    },
  });
}

async function main() {
  const owner = `session-${process.pid}`;
  const daytona = new Daytona({ useDeprecatedPolling: true });

  begin("create a sandbox from a snapshot, with labels and env, and wait until it has started");
  const sbx = await daytona.create({ snapshot: "daytonaio/sandbox:0.5.0", labels: { "sandboxio.owner": owner },
    envVars: { GREETING: "hello" }, autoStopInterval: 5, autoDeleteInterval: 0 }, { timeout: 60 });
  assert.equal(sbx.state, "started");
  assert.equal(sbx.labels["sandboxio.owner"], owner);
  assert.equal(sbx.autoDeleteInterval, 0);
  assert.equal(await sbx.getWorkDir(), "/home/daytona");

  begin("process.executeCommand: exit code and the merged output, cwd and env");
  let r = await sbx.process.executeCommand("echo out; echo err >&2; exit 3", undefined, undefined, 10);
  assert.equal(r.exitCode, 3);
  assert.equal(r.result, "out\nerr\n");
  await sbx.fs.createFolder("wd", "755");
  r = await sbx.process.executeCommand('echo "$WHO in $(pwd)"', "/home/daytona/wd", { WHO: "me" }, 10);
  assert.equal(r.result, "me in /home/daytona/wd\n");

  begin("process.executeCommand past its timeout is refused (408)");
  await assert.rejects(sbx.process.executeCommand("sleep 10", undefined, undefined, 1), (e) => {
    assert.equal(e.statusCode, 408, String(e));
    return true;
  });

  begin("a session: a synchronous command with stdout and stderr apart");
  await sbx.process.createSession("s1");
  r = await sbx.process.executeSessionCommand("s1", { command: "echo out; echo err >&2; (exit 4)" });
  assert.equal(r.exitCode, 4);
  assert.equal(r.stdout, "out\n");
  assert.equal(r.stderr, "err\n");

  begin("the session keeps its shell: cd and variables persist between commands");
  await sbx.process.executeSessionCommand("s1", { command: "cd wd && X=kept" });
  r = await sbx.process.executeSessionCommand("s1", { command: 'echo "$X $(pwd)"' });
  assert.equal(r.stdout, "kept /home/daytona/wd\n");

  begin("an asynchronous command: logs followed as they come, input, its record");
  const started = await sbx.process.executeSessionCommand("s1", {
    command: "for i in 1 2 3; do echo line$i; sleep 0.2; done; read name; echo \"hi $name\" >&2", runAsync: true });
  assert.ok(started.cmdId);
  const seen = [];
  let errText = "";
  const follow = sbx.process.getSessionCommandLogs("s1", started.cmdId,
    (d) => seen.push([Date.now(), d]), (d) => { errText += d; });
  for (let i = 0; !seen.map(([, d]) => d).join("").includes("line3"); i++) {
    assert.ok(i < 100, "the followed logs never showed line3");
    await new Promise((res) => setTimeout(res, 50));
  }
  // It waits on `read`: running, no exit code yet.
  assert.equal((await sbx.process.getSessionCommand("s1", started.cmdId)).exitCode, undefined);
  await sbx.process.sendSessionCommandInput("s1", started.cmdId, "world");
  await follow;
  const outText = seen.map(([, d]) => d).join("");
  assert.equal(outText, "line1\nline2\nline3\nworld\n"); // the daemon echoes input as stdout
  assert.equal(errText, "hi world\n");
  assert.ok(seen.length >= 2, `output came in ${seen.length} piece(s), not as it was written`);
  const rec = await sbx.process.getSessionCommand("s1", started.cmdId);
  assert.equal(rec.exitCode, 0);
  const logs = await sbx.process.getSessionCommandLogs("s1", started.cmdId);
  assert.equal(logs.stdout, "line1\nline2\nline3\nworld\n");
  assert.equal(logs.stderr, "hi world\n");

  begin("sessions listed; deleting one ends its commands");
  const bg = await sbx.process.executeSessionCommand("s1", { command: "sleep 60", runAsync: true });
  assert.ok((await sbx.process.listSessions()).some((s) => s.sessionId === "s1"));
  await sbx.process.deleteSession("s1");
  assert.ok(!(await sbx.process.listSessions()).some((s) => s.sessionId === "s1"));
  await assert.rejects(sbx.process.getSessionCommand("s1", bg.cmdId), (e) => e instanceof DaytonaNotFoundError);
  r = await sbx.process.executeCommand("pgrep -f 'sleep 60' || echo none", undefined, undefined, 10);
  assert.equal(r.result, "none\n");

  begin("no network in the sandbox");
  r = await sbx.process.executeCommand("(exec 3<>/dev/tcp/1.1.1.1/80) 2>/dev/null && echo reached || echo unreachable", undefined, undefined, 10);
  assert.equal(r.result, "unreachable\n");

  begin("files: upload, download, the command sees the file");
  await sbx.fs.uploadFile(Buffer.from("hi there\n"), "notes/hello.txt");
  assert.equal((await sbx.fs.downloadFile("notes/hello.txt")).toString(), "hi there\n");
  r = await sbx.process.executeCommand("cat notes/hello.txt", undefined, undefined, 10);
  assert.equal(r.result, "hi there\n");

  begin("files: list, info, folder, delete");
  await sbx.fs.createFolder("notes/sub", "750");
  const entries = await sbx.fs.listFiles("notes");
  assert.deepEqual(entries.map((e) => [e.name, e.isDir]).sort(), [["hello.txt", false], ["sub", true]]);
  const fi = await sbx.fs.getFileDetails("notes/hello.txt");
  assert.equal(fi.size, 9);
  assert.equal(fi.isDir, false);
  await assert.rejects(sbx.fs.deleteFile("notes"), (e) => e.statusCode === 400);
  await sbx.fs.deleteFile("notes", true);
  await assert.rejects(sbx.fs.getFileDetails("notes"), (e) => e instanceof DaytonaNotFoundError);

  begin(`files: ${BIG} bytes uploaded as a stream, checked in the sandbox, downloaded as a stream`);
  const up = crypto.createHash("sha256");
  await sbx.fs.uploadFileStream(bigStream(BIG, up), "big.bin");
  const upHex = up.digest("hex");
  r = await sbx.process.executeCommand("stat -c %s big.bin; sha256sum big.bin", undefined, undefined, 60);
  assert.equal(r.result, `${BIG}\n${upHex}  big.bin\n`);
  const down = crypto.createHash("sha256");
  let got = 0;
  for await (const chunk of await sbx.fs.downloadFileStream("big.bin")) {
    down.update(chunk);
    got += chunk.length;
  }
  assert.equal(got, BIG);
  assert.equal(down.digest("hex"), upHex);

  begin("list sandboxes by label; refresh the record");
  const found = [];
  for await (const s of daytona.list({ labels: { "sandboxio.owner": owner } })) found.push(s.id);
  assert.deepEqual(found, [sbx.id]);
  await sbx.refreshData();
  assert.equal(sbx.state, "started");

  begin("delete the sandbox: gone from the list, its toolbox unreachable");
  await sbx.delete();
  const left = [];
  for await (const s of daytona.list({ labels: { "sandboxio.owner": owner } })) left.push(s.id);
  assert.deepEqual(left, []);
  await assert.rejects(daytona.get(sbx.id), (e) => e instanceof DaytonaNotFoundError);
  await assert.rejects(sbx.process.executeCommand("true"), (e) => e.statusCode === 404);
}

run(main);
