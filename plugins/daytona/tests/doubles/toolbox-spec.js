// SPDX-License-Identifier: Apache-2.0
// Derives, at test time, the copy of Daytona's toolbox spec that Prism
// checks the toolbox double against: the same document with every path
// under /{sandboxId} (as the proxy forwards `{toolboxProxyUrl}/{sandboxId}/...`,
// which the spec's own description states) and that path parameter declared
// on each. The stored spec is never edited.
import fs from "node:fs";
import YAML from "yaml";

const PARAM = {
  name: "sandboxId", in: "path", required: true,
  description: "ID of the sandbox (the proxy's routing prefix)", schema: { type: "string" },
};

export function deriveToolboxSpec(storedPath, outPath) {
  const doc = YAML.parse(fs.readFileSync(storedPath, "utf8"));
  const paths = {};
  for (const [p, item] of Object.entries(doc.paths)) {
    paths[`/{sandboxId}${p}`] = { ...item, parameters: [PARAM, ...(item.parameters ?? [])] };
  }
  doc.paths = paths;
  fs.writeFileSync(outPath, JSON.stringify(doc));
  return Object.keys(paths).length;
}
