// SPDX-License-Identifier: Apache-2.0
// Paths inside a sandbox, resolved as Daytona's daemon resolves them: it
// runs with the work dir (the user's home, /home/daytona) as its current
// directory and hands a relative path to the OS as it is, so a relative
// path is taken from the work dir. Then, unlike the daemon, which has the
// VM's own root to stay in, every symlink is followed inside the sandbox's
// root by hand, so a link to /etc names the sandbox's /etc, never the host's.
import path from "node:path";

export const HOME = "/home/daytona";
export const USER = "daytona";

export function resolvePath(p) {
  return path.posix.resolve(HOME, p || ".");
}

// resolveInRoot: every symlink followed inside the sandbox's root (the rig's base).
export { resolveInRoot } from "../../../../lib/tests/doubles/rest-double.js";
