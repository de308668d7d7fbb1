// SPDX-License-Identifier: Apache-2.0
// Proves the rig is what it claims before the SDK session relies on it:
// Prism is in the control plane's path and reports violations; envd's
// double is strict (Connect-Protocol-Version, unknown fields, the access
// token); a server stream ends with its end-of-stream frame; the sandboxes
// are confined and apart; and each fault knob does what faults.js says.
// Usage: node rig-selfcheck.js STATE_DIR/rig.json
import assert from "node:assert/strict";
import fs from "node:fs";
import { assertRefused, session } from "../../../../lib/tests/doubles/rest-double.js";

const rig = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const KEY = { "X-API-Key": rig.apiKey, "Content-Type": "application/json" };
const { begin, run: runCheck } = session(() => "rig self-check passed");
const created = [];

const control = (method, p, body) => fetch(rig.controlUrl + p, {
  method, headers: { "Content-Type": "application/json" }, body: body && JSON.stringify(body),
});
const fault = (rule) => control("POST", "/_control/faults", rule);

async function create(extra = {}) {
  const r = await fetch(`${rig.apiUrl}/sandboxes`, {
    method: "POST", headers: KEY, body: JSON.stringify({ templateID: "base", timeout: 60, secure: true, ...extra }),
  });
  assert.equal(r.status, 201, await r.clone().text());
  const sb = await r.json();
  created.push(sb.sandboxID);
  return sb;
}

function envdHeaders(sb, extra = {}) {
  return { "E2b-Sandbox-Id": sb.sandboxID, "X-Access-Token": sb.envdAccessToken, ...extra };
}

function unary(sb, method, body, headers = {}) {
  return fetch(`${rig.sandboxUrl}/${method}`, {
    method: "POST",
    headers: envdHeaders(sb, { "Content-Type": "application/json", "Connect-Protocol-Version": "1", ...headers }),
    body: JSON.stringify(body),
  });
}

// A Connect server-streaming call, read to its end: the messages, the
// end-of-stream frame's JSON (null if the body ended without one), and
// the transport error if the body was cut.
async function serverStream(sb, method, body, headers = {}) {
  const json = Buffer.from(JSON.stringify(body));
  const env = Buffer.alloc(5 + json.length);
  env.writeUInt32BE(json.length, 1);
  json.copy(env, 5);
  const r = await fetch(`${rig.sandboxUrl}/${method}`, {
    method: "POST",
    headers: envdHeaders(sb, { "Content-Type": "application/connect+json", "Connect-Protocol-Version": "1", ...headers }),
    body: env,
  });
  assert.equal(r.status, 200);
  let buf = Buffer.alloc(0), cut = null;
  try {
    for await (const chunk of r.body) buf = Buffer.concat([buf, chunk]);
  } catch (e) {
    cut = e;
  }
  const messages = [];
  let end = null;
  for (let off = 0; off + 5 <= buf.length;) {
    const flags = buf[off], len = buf.readUInt32BE(off + 1);
    if (off + 5 + len > buf.length) break;
    const msg = JSON.parse(buf.subarray(off + 5, off + 5 + len).toString());
    if (flags & 2) end = msg;
    else messages.push(msg);
    off += 5 + len;
  }
  return { messages, end, cut };
}

const run = (sb, script, headers) => serverStream(sb, "process.Process/Start",
  { process: { cmd: "/bin/sh", args: ["-c", script] } }, headers);

const stdoutOf = (messages) => messages
  .filter((m) => m.event.data?.stdout).map((m) => Buffer.from(m.event.data.stdout, "base64").toString()).join("");

async function main() {
  begin("Prism is in the control plane's path: a request the spec forbids is refused and reported");
  let r = await fetch(`${rig.apiUrl}/sandboxes`, { method: "POST", headers: KEY, body: "{}" });
  await assertRefused(r, 422, control, /templateID/, true);

  begin("a missing API key breaks the spec's security: Prism refuses it");
  r = await fetch(`${rig.apiUrl}/sandboxes/none`);
  await assertRefused(r, 401, control, /UNAUTHORIZED/);
  let v;

  begin("the control plane refuses a wrong API key with E2B's 401");
  r = await fetch(`${rig.apiUrl}/sandboxes/none`, { headers: { ...KEY, "X-API-Key": "e2b_wrong" } });
  assert.equal(r.status, 401);
  assert.equal((await r.json()).code, 401);
  assert.deepEqual(await (await control("GET", "/_control/violations")).json(), []);

  const a = await create();
  begin("envd: the Connect-Protocol-Version header is required");
  r = await unary(a, "process.Process/List", {}, { "Connect-Protocol-Version": "" });
  assert.equal(r.status, 400);
  begin("envd: unknown JSON fields are rejected");
  r = await unary(a, "process.Process/List", { bogus: 1 });
  assert.equal(r.status, 400);
  assert.equal((await r.json()).code, "invalid_argument");
  begin("envd: a wrong access token gets 401, the right one 200");
  r = await unary(a, "process.Process/List", {}, { "X-Access-Token": "wrong" });
  assert.equal(r.status, 401);
  r = await unary(a, "process.Process/List", {});
  assert.equal(r.status, 200);
  assert.deepEqual(await r.json(), {});
  const seen = await (await control("GET", "/_control/envd-requests")).json();
  assert.equal(seen.at(-1).path, "/process.Process/List");
  assert.equal(seen.at(-1).headers["x-access-token"], a.envdAccessToken);

  begin("Start: start, data, end events, then the end-of-stream frame");
  let s = await run(a, "echo hi; exit 4");
  assert.ok(s.messages[0].event.start.pid > 0);
  assert.equal(stdoutOf(s.messages), "hi\n");
  assert.deepEqual(s.messages.at(-1).event.end, { exitCode: 4, exited: true, status: "exit status 4", error: "exit status 4" });
  assert.deepEqual(s.end, {});
  assert.equal(s.cut, null);

  begin("the timeout kills the command's process only, as envd's does: its children live on");
  s = await run(a, "sleep 30 & echo $!; wait", { "Connect-Timeout-Ms": "1500" });
  // envd races its end event against the request's deadline: either ends it.
  assert.ok(s.end?.error?.code === "deadline_exceeded"
    || s.messages.at(-1).event.end?.status === "signal: killed", JSON.stringify(s));
  const orphan = stdoutOf(s.messages).trim();
  assert.match(orphan, /^[0-9]+$/);
  s = await run(a, `kill -0 ${orphan} && echo alive; kill -9 ${orphan}`);
  assert.equal(stdoutOf(s.messages), "alive\n");

  begin("a sandbox is confined: no host files, no network, its own processes");
  s = await run(a, "test -e /etc/shadow || echo no-shadow; test -e /work || echo no-work; "
    + "(exec 3<>/dev/tcp/127.0.0.1/22) 2>/dev/null || echo no-net; ps -e -o pid= | wc -l");
  const lines = stdoutOf(s.messages).trim().split("\n");
  assert.deepEqual(lines.slice(0, 3), ["no-shadow", "no-work", "no-net"]);
  assert.ok(Number(lines[3]) < 10, `the sandbox sees ${lines[3]} processes`);

  begin("two sandboxes do not see each other's files");
  const b = await create();
  await run(a, "echo secret > /home/user/a-only; echo x > /tmp/a-tmp");
  s = await run(b, "ls /home/user /tmp");
  assert.equal(stdoutOf(s.messages).includes("a-only") || stdoutOf(s.messages).includes("a-tmp"), false);

  begin("fault: 429 with Retry-After, then success");
  await fault({ target: "api", method: "GET", path: "^/sandboxes/[^/]+$", status: 429, retryAfter: 1 });
  r = await fetch(`${rig.apiUrl}/sandboxes/${a.sandboxID}`, { headers: KEY });
  assert.equal(r.status, 429);
  assert.equal(r.headers.get("retry-after"), "1");
  r = await fetch(`${rig.apiUrl}/sandboxes/${a.sandboxID}`, { headers: KEY });
  assert.equal(r.status, 200);

  begin("fault: 503 on create, then success");
  await fault({ target: "api", method: "POST", path: "^/sandboxes$", status: 503 });
  r = await fetch(`${rig.apiUrl}/sandboxes`, { method: "POST", headers: KEY, body: JSON.stringify({ templateID: "base" }) });
  assert.equal(r.status, 503);
  await create();

  begin("fault: 401 on any call");
  await fault({ target: "api", status: 401, message: "Invalid API key" });
  r = await fetch(`${rig.apiUrl}/sandboxes/${a.sandboxID}`, { headers: KEY });
  assert.equal(r.status, 401);

  begin("fault: a Start stream cut before its end frame");
  await fault({ target: "envd", path: "/process.Process/Start$", action: "cut-stream", afterEvents: 1 });
  s = await run(a, "sleep 0.3; echo late");
  assert.equal(s.end, null);
  assert.ok(s.messages.length >= 1 && s.messages[0].event.start);
  assert.equal(s.messages.some((m) => m.event.end), false);

  begin("fault: the sandbox expires mid-exec (404 from then on)");
  await fault({ target: "envd", path: "/process.Process/Start$", action: "expire-mid-exec", afterMs: 200 });
  s = await run(a, "sleep 5");
  assert.equal(s.end, null);
  r = await fetch(`${rig.apiUrl}/sandboxes/${a.sandboxID}`, { headers: KEY });
  assert.equal(r.status, 404);
  r = await fetch(`${rig.sandboxUrl}/health`, { headers: envdHeaders(a) });
  assert.equal(r.status, 502);

  begin("fault: envd slow to come up after create");
  await fault({ target: "api", path: "^/sandboxes$", action: "envd-slow", ms: 800 });
  const c = await create();
  r = await fetch(`${rig.sandboxUrl}/health`, { headers: envdHeaders(c) });
  assert.equal(r.status, 502);
  await new Promise((res) => setTimeout(res, 900));
  r = await fetch(`${rig.sandboxUrl}/health`, { headers: envdHeaders(c) });
  assert.equal(r.status, 204);

  for (const id of created) await fetch(`${rig.apiUrl}/sandboxes/${id}`, { method: "DELETE", headers: KEY });
  const left = await (await control("GET", "/_control/sandboxes")).json();
  assert.deepEqual(left, []);
  v = await (await control("GET", "/_control/violations")).json();
  assert.deepEqual(v, []);
  await control("DELETE", "/_control/requests");
  await control("DELETE", "/_control/envd-requests");
}

runCheck(main);
