// The adapters whose wire surface is checked, one entry each: where their
// recorded surface and stored specs live (relative to the source tree),
// which npm SDK the canary installs, and what the surface may use that no
// published spec describes (each with the reason). A new adapter is one
// more entry here.
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
  },
  daytona: {
    surface: "plugins/daytona/wire-surface.txt",
    sources: ["plugins/daytona/*.c"],
    specs: {
      api: { openapi: "plugins/daytona/spec/api-openapi.yaml" },
      toolbox: { openapi: "plugins/daytona/spec/toolbox-openapi.yaml" },
    },
    history: {},
    maps: ["labels", "env", "envs"],
    offSpecHeaders: {},
    npm: "@daytonaio/sdk",
  },
};

// Headers of HTTP itself and of the Connect protocol: never a spec's.
export const PROTOCOL_HEADERS = new Set([
  "host", "content-length", "content-type", "accept", "accept-encoding", "user-agent",
  "transfer-encoding", "expect", "connection", "te",
  "connect-protocol-version", "connect-timeout-ms", "connect-accept-encoding", "connect-content-encoding",
]);
