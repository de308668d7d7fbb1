// SPDX-License-Identifier: Apache-2.0
// Starts the Daytona test rig on 127.0.0.1 ports it picks:
//   the control-plane double and the toolbox double, each behind Prism in
//   proxy mode with --errors (the control plane loaded with the stored
//   api-openapi.yaml, the toolbox with a copy of toolbox-openapi.yaml
//   whose paths carry the /{sandboxId} prefix, derived here), so every
//   request and response is checked against Daytona's published specs;
//   and before each Prism a front door (front.js) that records the
//   requests, keeps Prism's violations and answers the injected faults.
// Usage: node rig.js STATE_DIR
// Writes STATE_DIR/rig.json once everything answers:
//   { apiUrl (the control plane's front door), toolboxUrl (the toolbox's
//     front door: every sandbox's toolboxProxyUrl), apiPrismUrl,
//     toolboxPrismUrl, controlUrl (the control-plane double itself, for
//     /_control/), apiKey, jwtToken, organizationId, prismLogs }
// and runs until SIGTERM or SIGINT, then kills every sandbox and Prism.
// Credentials the doubles accept: DAYTONA_DOUBLE_API_KEY (or a fixed test
// key), and a fixed JWT with its organisation. Faults: DAYTONA_DOUBLE_FAULTS
// (see faults.js).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ControlPlane } from "./control-plane.js";
import { createToolboxServer } from "./toolbox.js";
import { Faults } from "./faults.js";
import { createApiFront, createToolboxFront } from "./front.js";
import { deriveToolboxSpec } from "./toolbox-spec.js";
import { listen, startPrism as startPrismOn, writeRigJson } from "../../../../lib/tests/doubles/rest-double.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SPEC_DIR = path.join(HERE, "..", "..", "spec");
const PRISM = path.join(HERE, "node_modules", "@stoplight", "prism-cli", "dist", "index.js");
const API_KEY = process.env.DAYTONA_DOUBLE_API_KEY || "dtn_" + "0123456789abcdef".repeat(4);
const JWT = { token: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkb3VibGUifQ.ZG91YmxlLXNpZ25hdHVyZQ",
  organizationId: "4f3c2b1a-0d9e-4c8b-a7f6-e5d4c3b2a190" };

const stateDir = process.argv[2];
if (!stateDir || !fs.existsSync(stateDir)) {
  console.error("usage: node rig.js STATE_DIR (an existing directory)");
  process.exit(2);
}

const prisms = [];
let cp = null;

function shutdown(code) {
  if (cp) cp.closeAll();
  for (const p of prisms) if (p.exitCode === null) p.kill("SIGKILL");
  process.exit(code);
}
process.on("SIGTERM", () => shutdown(0));
process.on("SIGINT", () => shutdown(0));

async function startPrism(spec, upstreamPort, log) {
  const p = await startPrismOn({ bin: PRISM, spec, upstreamPort, log, onChild: (c) => prisms.push(c) });
  if (p) {
    p.child.on("exit", (code, sig) => {
      console.error(`prism (${path.basename(spec)}) exited (${code ?? sig})`);
      shutdown(1);
    });
    return p.port;
  }
  console.error(`prism did not start for ${spec}; its log:\n${fs.readFileSync(log, "utf8")}`);
  shutdown(1);
  return 0;
}

// DAYTONA_WIRE_RECORD: where the exchanges go, for the spec check of the
// surface. The recorder is the spec check's (tests/churn/lib/), loaded only
// then: the tests that record install tests/churn/ first (churn-npm.sh).
const recorder = process.env.DAYTONA_WIRE_RECORD
  ? (await import("../../../../tests/churn/lib/wire-record.js")).recorderFromEnv("DAYTONA_WIRE_RECORD") : null;
const faults = new Faults((id) => cp.expire(id));
cp = new ControlPlane({ apiKey: API_KEY, jwt: JWT, stateDir, faults });
// With the toolbox direct (a benchmark without Prism), when each request
// reached a double and when its answer was done: /_control/timeline.
function timed(server, service) {
  server.on("request", (req, res) => {
    if (!cp.direct || req.url.startsWith("/_control/")) return;
    const start = performance.now();
    res.on("finish", () => cp.timeline.push({ service, method: req.method, path: req.url,
      status: res.statusCode, start, end: performance.now() }));
  });
  return server;
}
const cpPort = await listen(timed(cp.server(), "api"));
const toolboxPort = await listen(timed(createToolboxServer(cp.sandboxes), "toolbox"));

const toolboxSpec = path.join(stateDir, "toolbox-openapi.prefixed.json");
deriveToolboxSpec(path.join(SPEC_DIR, "toolbox-openapi.yaml"), toolboxSpec);
const apiLog = path.join(stateDir, "prism-api.log");
const toolboxLog = path.join(stateDir, "prism-toolbox.log");
// The two Prisms read their specs at once (each takes a while on a
// loaded machine).
// Prism watches its document and restarts when it changes, refusing
// connections meanwhile: each loads this rig's own copy, which no other
// test's install of the doubles rewrites.
const apiSpec = path.join(stateDir, "api-openapi.yaml");
fs.copyFileSync(path.join(SPEC_DIR, "api-openapi.yaml"), apiSpec);
const [apiPrism, toolboxPrism] = await Promise.all([
  startPrism(apiSpec, cpPort, apiLog),
  startPrism(toolboxSpec, toolboxPort, toolboxLog),
]);

const apiFront = await listen(createApiFront({
  prismPort: apiPrism, faults, requests: cp.requests, violations: cp.violations, recorder,
}));
const toolboxFront = await listen(createToolboxFront({ prismPort: toolboxPrism, toolboxPort, faults, cp, recorder }));
cp.toolboxUrl = `http://127.0.0.1:${toolboxFront}`;
cp.toolboxDirectUrl = `http://127.0.0.1:${toolboxPort}`;

const info = {
  apiUrl: `http://127.0.0.1:${apiFront}`,
  toolboxUrl: cp.toolboxUrl,
  apiPrismUrl: `http://127.0.0.1:${apiPrism}`,
  toolboxPrismUrl: `http://127.0.0.1:${toolboxPrism}`,
  controlUrl: `http://127.0.0.1:${cpPort}`,
  apiKey: API_KEY,
  jwtToken: JWT.token,
  organizationId: JWT.organizationId,
  prismLogs: [apiLog, toolboxLog],
};
writeRigJson(stateDir, info);
