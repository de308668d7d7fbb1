// SPDX-License-Identifier: Apache-2.0
// The adapters whose wire surface is checked, one entry each: where their
// recorded surface and stored specs live (relative to the source tree),
// which npm SDK the canary installs, and what the surface may use that no
// published spec describes (each with the reason). A service's `prefix`
// goes before each path of its spec (the paths as clients call them). A
// new adapter is one more entry here.
export const PROVIDERS = {
  e2b: {
    surface: "plugins/e2b/wire-surface.txt",
    sources: ["plugins/e2b/*.c"],
    // service name in the recording -> its specs
    specs: {
      api: { openapi: "plugins/e2b/spec/openapi.yml" },
      envd: { openapi: "plugins/e2b/spec/envd.yaml", protos: ["plugins/e2b/spec/process.proto", "plugins/e2b/spec/filesystem.proto"] },
    },
    history: {
      "api.openapi": "plugins/e2b/spec/history/openapi.yml",
      "envd.protos": ["plugins/e2b/spec/history/process.proto", "plugins/e2b/spec/history/filesystem.proto"],
    },
    // Objects whose keys are the caller's, not the spec's (label and
    // environment maps): recorded as NAME.* with the values' type.
    maps: ["metadata", "envVars", "envs"],
    // Headers on the wire that are in no published spec, and why.
    offSpecHeaders: {
      "e2b-sandbox-id": "E2B's proxy routes envd requests by it (js-sdk src/sandbox/index.ts); no spec describes the proxy",
    },
    npm: "e2b",
    // Where the SDK keeps its wire surface: its REST calls (openapi-fetch,
    // client.POST("/path")) for each service, and its bundled protobuf
    // descriptors (fileDesc("base64")).
    sdk: {
      rest: [{ files: ["e2b/dist/index.mjs"], style: "openapi-fetch", services: ["api", "envd"] }],
      descriptors: ["e2b/dist/index.mjs"],
      protoService: "envd",
    },
    session: "plugins/e2b/tests/doubles/sdk-session.js",
    rig: "plugins/e2b/tests/e2b-rig.sh",
  },
  daytona: {
    surface: "plugins/daytona/wire-surface.txt",
    sources: ["plugins/daytona/*.c"],
    specs: {
      api: { openapi: "plugins/daytona/spec/api-openapi.yaml" },
      // The toolbox spec describes the daemon; clients reach it through
      // Daytona's proxy as {toolboxProxyUrl}/{sandboxId}/PATH (the spec's
      // own description says so), so its paths are checked with that prefix,
      // as the rig's Prism checks them (doubles/toolbox-spec.js).
      toolbox: { openapi: "plugins/daytona/spec/toolbox-openapi.yaml", prefix: "/{sandboxId}" },
    },
    history: {},
    maps: ["labels", "env", "envs"],
    // Of an error answer the adapter reads only the message
    // (api.c and toolbox.c take it with sbxu_json_message, lib/json.c).
    errorReads: ["message"],
    // Headers on the wire that are in no published spec, and why: as
    // "SVC NAME" for one service only (the control plane's spec declares
    // the organisation header, and the check still holds it to that).
    offSpecHeaders: {
      "toolbox x-daytona-organization-id": "Daytona's proxy, before the toolbox, takes a JWT with its organisation as the control plane does; " +
        "the SDK sends its control-plane headers to the toolbox too (@daytonaio/sdk esm/Daytona.js clientConfig, handed to each Sandbox); no spec describes the proxy",
    },
    npm: "@daytonaio/sdk",
    // The SDK calls generated axios clients (@daytona/api-client and
    // @daytona/toolbox-api-client in 0.218.0); the @daytonaio scope is
    // looked at too, should a release move them there.
    sdk: {
      rest: [
        { files: ["@daytona/api-client/src/api/*.js", "@daytonaio/api-client/src/api/*.js"], style: "openapi-generator", services: ["api"] },
        { files: ["@daytona/toolbox-api-client/src/api/*.js", "@daytonaio/toolbox-api-client/src/api/*.js"], style: "openapi-generator", services: ["toolbox"] },
      ],
      descriptors: [],
    },
    session: "plugins/daytona/tests/doubles/sdk-session.js",
    rig: "plugins/daytona/tests/daytona-rig.sh",
    // The session runs in the rig's directory (the SDK reads a dotenv file
    // in its working directory).
    sessionInRigDir: true,
  },
};

// Headers of HTTP itself and of the Connect protocol: never a spec's.
export const PROTOCOL_HEADERS = new Set([
  "host", "content-length", "content-type", "accept", "accept-encoding", "user-agent",
  "transfer-encoding", "expect", "connection", "te",
  "connect-protocol-version", "connect-timeout-ms", "connect-accept-encoding", "connect-content-encoding",
]);
