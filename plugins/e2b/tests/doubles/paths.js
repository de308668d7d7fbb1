// SPDX-License-Identifier: Apache-2.0
// Paths inside a sandbox, resolved as envd resolves them
// (permissions.ExpandAndResolve): `~` and relative paths are taken from the
// user's home; then, unlike envd, which has the VM's own root to stay in,
// every symlink is followed inside the sandbox's root by hand, so a link
// to /etc names the sandbox's /etc and never the host's.
import fs from "node:fs";
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

// The in-sandbox path `p` with its symlinks resolved inside `root` (a host
// directory); the last component is followed too unless `noFollowLast`.
// A missing component ends the walk: the rest is appended as it is.
export function resolveInRoot(root, p, noFollowLast = false) {
  let todo = path.posix.resolve("/", p).split("/").filter(Boolean);
  let cur = "/";
  for (let hops = 0; todo.length; ) {
    const name = todo.shift();
    const next = path.posix.join(cur, name);
    let st;
    try {
      st = fs.lstatSync(path.join(root, next));
    } catch {
      return path.posix.join(next, ...todo);
    }
    if (st.isSymbolicLink() && !(noFollowLast && todo.length === 0)) {
      if (++hops > 40) throw new Error(`too many levels of symbolic links: ${p}`);
      const target = fs.readlinkSync(path.join(root, next));
      todo = path.posix.resolve(cur, target).split("/").filter(Boolean).concat(todo);
      cur = "/";
      continue;
    }
    cur = next;
  }
  return cur;
}
