// SPDX-License-Identifier: Apache-2.0
// Proves the rig is what it claims before the SDK session relies on it:
// each Prism is in its double's path and reports violations; the front
// doors check credentials; the sessions keep stdout and stderr apart; the
// sandboxes are confined and apart; and each fault knob does what
// faults.js says.
// Usage: node rig-selfcheck.js STATE_DIR/rig.json
import assert from "node:assert/strict";
import fs from "node:fs";
import { assertRefused, session } from "../../../../lib/tests/doubles/rest-double.js";

const rig = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const H = { Authorization: `Bearer ${rig.apiKey}`, "Content-Type": "application/json" };
const { begin, run: runCheck } = session(() => "rig self-check passed");
const created = [];

const timed = (url, opts = {}) => fetch(url, { signal: AbortSignal.timeout(30000), ...opts });
const control = (method, p, body) => timed(rig.controlUrl + p, {
  method, headers: { "Content-Type": "application/json" }, body: body && JSON.stringify(body),
});
const fault = (rule) => control("POST", "/_control/faults", rule);
const violations = async () => (await control("GET", "/_control/violations")).json();
const api = (p, opts = {}) => timed(rig.apiUrl + p, { headers: H, ...opts });

async function waitState(id, want, ms = 20000) {
  const until = Date.now() + ms;
  for (;;) {
    const sb = await (await api(`/sandbox/${id}`)).json();
    if (sb.state === want) return sb;
    assert.ok(Date.now() < until, `sandbox ${id} still ${sb.state}, not ${want}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function create(body = {}) {
  const r = await api("/sandbox", { method: "POST", body: JSON.stringify(body) });
  assert.equal(r.status, 200, await r.clone().text());
  const sb = await r.json();
  created.push(sb.id);
  assert.equal(sb.state, "creating");
  assert.equal(sb.toolboxProxyUrl, rig.toolboxUrl);
  return waitState(sb.id, "started");
}

const tb = (sb, p, opts = {}) => timed(`${rig.toolboxUrl}/${sb.id}${p}`, { headers: H, ...opts });
const post = (sb, p, body, extra = {}) => tb(sb, p, { method: "POST", headers: { ...H, ...extra }, body: JSON.stringify(body) });
const run = async (sb, command) => (await (await post(sb, "/process/execute", { command, timeout: 10 })).json()).result;

// Waits until the command's stdout ends with `text` (what it says once it
// has done what a step relies on).
async function said(sb, session, cmdId, text, ms = 20000) {
  const until = Date.now() + ms;
  for (;;) {
    const r = await tb(sb, `/process/session/${session}/command/${cmdId}/logs`,
      { headers: { ...H, "X-Daytona-SDK-Version": "0.218.0" } });
    assert.equal(r.status, 200);
    if ((await r.json()).stdout.endsWith(text)) return;
    assert.ok(Date.now() < until, `command ${cmdId} never said ${JSON.stringify(text)}`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

async function main() {
  begin("Prism is in the control plane's path: a request the spec forbids is refused and reported");
  let r = await api("/sandbox", { method: "POST", body: JSON.stringify({ cpu: "two" }) });
  await assertRefused(r, 422, control, /cpu/, true);

  begin("a request without credentials breaks the spec's security: Prism refuses it");
  r = await timed(`${rig.apiUrl}/sandbox/none`);
  await assertRefused(r, 401, control, /UNAUTHORIZED|security/i);
  let v;

  begin("the control plane refuses a wrong key with the API's 401 (a status the spec does not declare)");
  r = await api("/sandbox/none", { headers: { Authorization: "Bearer dtn_wrong" } });
  assert.equal(r.status, 401);
  const body = await r.json();
  assert.equal(body.statusCode, 401);
  assert.equal(body.message, "Invalid credentials");
  assert.deepEqual(await violations(), []);
  const undeclared = await (await control("GET", "/_control/undeclared")).json();
  assert.deepEqual(undeclared.map((u) => u.status), [401]);
  await control("DELETE", "/_control/undeclared");

  begin("a JWT needs its organisation header");
  r = await api("/sandbox", { headers: { Authorization: `Bearer ${rig.jwtToken}` } });
  assert.equal(r.status, 401);
  r = await api("/sandbox", { headers: { Authorization: `Bearer ${rig.jwtToken}`, "X-Daytona-Organization-ID": rig.organizationId } });
  assert.equal(r.status, 200);

  begin("create refuses what Daytona refuses: an unknown snapshot, a limit above the organisation's");
  r = await api("/sandbox", { method: "POST", body: JSON.stringify({ snapshot: "no-such" }) });
  assert.equal(r.status, 400);
  r = await api("/sandbox", { method: "POST", body: JSON.stringify({ memory: 64 }) });
  assert.equal(r.status, 400);
  assert.match((await r.json()).message, /exceeds maximum/);

  const a = await create({ labels: { rig: "a" } });
  begin("Prism is in the toolbox's path, loaded with the prefixed spec");
  r = await post(a, "/process/execute", { cwd: "/" });
  assert.equal(r.status, 422);
  v = await violations();
  assert.equal(v.length, 1);
  assert.match(v[0].violations, /command/);
  await control("DELETE", "/_control/violations");

  begin("the toolbox proxy wants the bearer credential and a started sandbox");
  r = await tb(a, "/files", { headers: { Authorization: "Bearer wrong" } });
  assert.equal(r.status, 401);
  r = await timed(`${rig.toolboxUrl}/no-such-sandbox/files`, { headers: H });
  assert.equal(r.status, 404);

  begin("a session keeps stdout and stderr apart; exit code from the command's record");
  r = await post(a, "/process/session", { sessionId: "s" });
  assert.equal(r.status, 201);
  r = await post(a, "/process/session/s/exec", { command: "echo out; echo err >&2; (exit 5)" }, { "X-Daytona-SDK-Version": "0.218.0" });
  let x = await r.json();
  assert.deepEqual([x.stdout, x.stderr, x.exitCode], ["out\n", "err\n", 5]);
  r = await post(a, "/process/session/s/exec", { command: "printf 'no newline'", runAsync: true });
  assert.equal(r.status, 202);
  const cmdId = (await r.json()).cmdId;
  let rec;
  for (let i = 0; !(rec = await (await tb(a, `/process/session/s/command/${cmdId}`)).json()).exitCode && rec.exitCode !== 0; i++) {
    assert.ok(i < 200);
    await new Promise((res) => setTimeout(res, 50));
  }
  r = await tb(a, `/process/session/s/command/${cmdId}/logs`, { headers: { ...H, "X-Daytona-SDK-Version": "0.218.0" } });
  // The labeller ends every line with a newline; the raw log keeps the markers.
  assert.deepEqual(await r.json(), { output: "\x01\x01\x01no newline\n", stdout: "no newline\n", stderr: "" });
  // The plain-text forms (no SDK version) break the spec, which types every
  // 200 of the logs as an object: Prism says so.
  r = await tb(a, `/process/session/s/command/${cmdId}/logs`);
  assert.equal(r.status, 500);
  v = await violations();
  assert.match(v[0]?.violations ?? "", /must be object/);
  await control("DELETE", "/_control/violations");

  begin("input to a command whose stdin has no reader waits for it, then answers 410, and holds nothing up");
  // The command closes its stdin and runs on: a blocking open of its FIFO
  // would never return, and more of them than libuv has threads would
  // stall every file call of the double. The input is sent once the
  // command says its stdin is closed (its log): sent before, it would be
  // the FIFO's, answered 204, as the daemon answers it.
  r = await post(a, "/process/session/s/exec", { command: "exec </dev/null; echo closed; sleep 1", runAsync: true });
  assert.equal(r.status, 202);
  const closedId = (await r.json()).cmdId;
  await said(a, "s", closedId, "closed\n");
  const inputs = await Promise.all(Array.from({ length: 8 }, () =>
    post(a, `/process/session/s/command/${closedId}/input`, { data: "e" })));
  assert.deepEqual(inputs.map((x) => x.status), Array(8).fill(410));
  assert.match((await inputs[0].json()).message, /already completed with exit code 0/);
  r = await tb(a, "/files?path=/tmp");
  assert.equal(r.status, 200);

  begin("a sandbox is confined: no host files, no network, its own processes");
  const lines = (await run(a, "test -e /etc/shadow || echo no-shadow; test -e /work || echo no-work; "
    + "(exec 3<>/dev/tcp/127.0.0.1/22) 2>/dev/null || echo no-net; ps -e -o pid= | wc -l")).trim().split("\n");
  assert.deepEqual(lines.slice(0, 3), ["no-shadow", "no-work", "no-net"]);
  assert.ok(Number(lines[3]) < 12, `the sandbox sees ${lines[3]} processes`);

  begin("two sandboxes do not see each other's files");
  const b = await create();
  await run(a, "echo secret > a-only; echo x > /tmp/a-tmp");
  const seen = await run(b, "ls /home/daytona /tmp");
  assert.equal(seen.includes("a-only") || seen.includes("a-tmp"), false);

  begin("list by label");
  r = await api(`/sandbox?labels=${encodeURIComponent(JSON.stringify({ rig: "a" }))}`);
  assert.deepEqual((await r.json()).items.map((s) => s.id), [a.id]);

  begin("fault: 429 with Retry-After, then success");
  await fault({ target: "api", method: "GET", path: "^/sandbox/[^/]+$", status: 429, retryAfter: 1 });
  r = await api(`/sandbox/${a.id}`);
  assert.equal(r.status, 429);
  assert.equal(r.headers.get("retry-after"), "1");
  r = await api(`/sandbox/${a.id}`);
  assert.equal(r.status, 200);

  begin("fault: 503 on create, then success");
  await fault({ target: "api", method: "POST", path: "^/sandbox$", status: 503 });
  r = await api("/sandbox", { method: "POST", body: "{}" });
  assert.equal(r.status, 503);
  await create();

  begin("fault: 401 on any call, the toolbox's too");
  await fault({ target: "api", status: 401, message: "Invalid credentials" });
  r = await api(`/sandbox/${a.id}`);
  assert.equal(r.status, 401);
  await fault({ target: "toolbox", status: 401 });
  r = await tb(a, "/files");
  assert.equal(r.status, 401);

  begin("fault: input held until its command has ended, then 410");
  await fault({ target: "toolbox", path: "/input$", action: "after-exit" });
  r = await post(a, "/process/session/s/exec", { command: "sleep 0.3", runAsync: true });
  const heldId = (await r.json()).cmdId;
  r = await post(a, `/process/session/s/command/${heldId}/input`, { data: "late" });
  assert.equal(r.status, 410);
  assert.match((await r.json()).message, /already completed with exit code 0/);

  begin("fault: a sandbox stuck in creating");
  await fault({ target: "api", method: "POST", path: "^/sandbox$", action: "stuck-creating" });
  r = await api("/sandbox", { method: "POST", body: "{}" });
  const stuck = await r.json();
  created.push(stuck.id);
  await new Promise((res) => setTimeout(res, 1000));
  assert.equal((await (await api(`/sandbox/${stuck.id}`)).json()).state, "creating");
  r = await tb(stuck, "/files");
  assert.equal(r.status, 404);

  begin("fault: the sandbox is deleted mid-exec (404 from then on, the exec cut)");
  await fault({ target: "toolbox", path: "/exec$", action: "delete-mid-exec", afterMs: 300 });
  const t0 = Date.now();
  // A command far longer than the cut may take on a loaded machine (the
  // canary runs beside the builds): an exec that ran to its end is plainly
  // not cut.
  await assert.rejects(post(a, "/process/session/s/exec", { command: "sleep 60" }));
  assert.ok(Date.now() - t0 < 20000, "the exec was not cut");
  r = await api(`/sandbox/${a.id}`);
  assert.equal(r.status, 404);
  r = await tb(a, "/process/session/s");
  assert.equal(r.status, 404);

  for (const id of created) await api(`/sandbox/${id}`, { method: "DELETE" });
  const left = await (await control("GET", "/_control/sandboxes")).json();
  assert.deepEqual(left, []);
  assert.deepEqual(await violations(), []);
  for (const u of await (await control("GET", "/_control/undeclared")).json())
    assert.ok(u.status >= 400, `an undeclared success status: ${JSON.stringify(u)}`);
  for (const list of ["requests", "toolbox-requests", "undeclared"]) await control("DELETE", `/_control/${list}`);
}

runCheck(main);
