// SPDX-License-Identifier: Apache-2.0
// Starts the E2B test rig on 127.0.0.1 ports it picks:
//   the envd double, the control-plane double, Prism in proxy mode in
//   front of the control plane, loaded with the stored openapi.yml and
//   --errors, so every request and response is checked against E2B's spec,
//   and a front door before Prism (front.js) that records the requests,
//   keeps Prism's violations and answers the injected status faults.
// Usage: node rig.js STATE_DIR
// Writes STATE_DIR/rig.json once everything answers:
//   { apiUrl (the front door), prismUrl, sandboxUrl (envd), controlUrl
//     (the double itself, for /_control/), apiKey, prismLog }
// and runs until SIGTERM or SIGINT, then kills every sandbox and Prism.
// The API key the control plane accepts: E2B_DOUBLE_API_KEY, or a fixed
// test key. Faults: E2B_DOUBLE_FAULTS (see faults.js).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ControlPlane } from "./control-plane.js";
import { createEnvdServer } from "./envd-server.js";
import { Faults } from "./faults.js";
import { createFront } from "./front.js";
import { listen, startPrism, writeRigJson } from "../../../../lib/tests/doubles/rest-double.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const STORED_SPEC = path.join(HERE, "..", "..", "spec", "openapi.yml");
const PRISM = path.join(HERE, "node_modules", "@stoplight", "prism-cli", "dist", "index.js");
const API_KEY = process.env.E2B_DOUBLE_API_KEY || "e2b_" + "0123456789abcdef".repeat(3).slice(0, 40);

const stateDir = process.argv[2];
if (!stateDir || !fs.existsSync(stateDir)) {
  console.error("usage: node rig.js STATE_DIR (an existing directory)");
  process.exit(2);
}

let prism = null;
let cp = null;

function shutdown(code) {
  if (cp) cp.closeAll();
  if (prism && prism.exitCode === null) prism.kill("SIGKILL");
  process.exit(code);
}
process.on("SIGTERM", () => shutdown(0));
process.on("SIGINT", () => shutdown(0));

const faults = new Faults((id) => cp.expire(id));
// E2B_WIRE_RECORD: where the exchanges go, for the spec check of the
// surface. The recorder is the spec check's (tests/churn/lib/), loaded only
// then: the tests that record install tests/churn/ first (churn-npm.sh).
const recorder = process.env.E2B_WIRE_RECORD
  ? (await import("../../../../tests/churn/lib/wire-record.js")).recorderFromEnv("E2B_WIRE_RECORD") : null;
cp = new ControlPlane({ apiKey: API_KEY, stateDir, faults });
const envdPort = await listen(createEnvdServer(cp.sandboxes, faults, cp.envdRequests, recorder, cp.served));
const cpPort = await listen(cp.server());

// Prism watches its document and restarts when it changes, refusing
// connections meanwhile: it loads this rig's own copy, which no other
// test's install of the doubles rewrites.
const SPEC = path.join(stateDir, "openapi.yml");
fs.copyFileSync(STORED_SPEC, SPEC);
const prismLog = path.join(stateDir, "prism.log");
const started = await startPrism({ bin: PRISM, spec: SPEC, upstreamPort: cpPort, log: prismLog,
  probe: "/health", onChild: (c) => { prism = c; } });
const prismPort = started ? started.port : 0;
if (!prismPort) {
  console.error(`prism did not start; its log:\n${fs.readFileSync(prismLog, "utf8")}`);
  shutdown(1);
}
prism.on("exit", (code, sig) => {
  console.error(`prism exited (${code ?? sig})`);
  shutdown(1);
});

const frontPort = await listen(createFront({
  prismPort, faults, requests: cp.requests, violations: cp.violations, recorder, served: cp.served,
}));

const info = {
  apiUrl: `http://127.0.0.1:${frontPort}`,
  prismUrl: `http://127.0.0.1:${prismPort}`,
  sandboxUrl: `http://127.0.0.1:${envdPort}`,
  controlUrl: `http://127.0.0.1:${cpPort}`,
  apiKey: API_KEY,
  prismLog,
};
writeRigJson(stateDir, info);
