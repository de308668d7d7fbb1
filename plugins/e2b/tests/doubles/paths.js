// SPDX-License-Identifier: Apache-2.0
// Paths inside a sandbox, resolved as envd resolves them
// (permissions.ExpandAndResolve): `~` and relative paths are taken from the
// user's home; then, unlike envd, which has the VM's own root to stay in,
// every symlink is followed inside the sandbox's root by hand, so a link
// to /etc names the sandbox's /etc and never the host's.
import path from "node:path";

export const HOME = "/home/user";
export const USER = "user";

export function resolvePath(p) {
  if (p.startsWith("~")) {
    if (p.length > 1 && p[1] !== "/") throw new Error("cannot expand user-specific home dir");
    p = HOME + p.slice(1);
  }
  return path.posix.resolve(HOME, p || HOME);
}

// resolveInRoot: every symlink followed inside the sandbox's root (the rig's base).
export { resolveInRoot } from "../../../../lib/tests/doubles/rest-double.js";
