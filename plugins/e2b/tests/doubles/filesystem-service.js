// SPDX-License-Identifier: Apache-2.0
// envd's filesystem.Filesystem service (the calls the SDK's `files` makes:
// Stat, MakeDir, Move, ListDir, Remove), over a Sandbox's files, with
// envd's error codes (packages/envd/internal/services/filesystem).
import { Code, ConnectError } from "@connectrpc/connect";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { FileType } from "./gen/filesystem_pb.js";
import { resolvePath } from "./paths.js";
import fs from "node:fs";
import path from "node:path";

// Go's os.FileMode: type bits above the permission bits, and its String().
const GO_MODE_DIR = 0x80000000, GO_MODE_SYMLINK = 0x08000000;
function goModeString(st) {
  const kind = st.isDirectory() ? "d" : st.isSymbolicLink() ? "L" : "-";
  const rwx = "rwxrwxrwx";
  let s = kind;
  for (let i = 0; i < 9; i++) s += (st.mode & (1 << (8 - i))) ? rwx[i] : "-";
  return s;
}

function userName(id, file) {
  try {
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
      const f = line.split(":");
      if (Number(f[2]) === id) return f[0];
    }
  } catch { /* no such file */ }
  return String(id);
}

// envd's entryInfo(): the entry itself (lstat), its symlink target if any.
export function entryInfo(sb, sandboxPath) {
  const host = sb.hostPath(sandboxPath, true);
  let st;
  try {
    st = fs.lstatSync(host);
  } catch (e) {
    if (e.code === "ENOENT") throw new ConnectError(`file not found: ${sandboxPath}`, Code.NotFound);
    throw new ConnectError(`error getting file info: ${e.message}`, Code.Internal);
  }
  const entry = {
    name: path.posix.basename(sandboxPath),
    path: sandboxPath,
    type: st.isDirectory() ? FileType.DIRECTORY : st.isSymbolicLink() ? FileType.SYMLINK
      : st.isFile() ? FileType.FILE : FileType.UNSPECIFIED,
    size: BigInt(st.size),
    mode: ((st.mode & 0o777) | (st.isDirectory() ? GO_MODE_DIR : 0)
      | (st.isSymbolicLink() ? GO_MODE_SYMLINK : 0)) >>> 0,
    permissions: goModeString(st),
    owner: userName(st.uid, "/etc/passwd"),
    group: userName(st.gid, "/etc/group"),
    modifiedTime: timestampFromMs(Math.floor(st.mtimeMs)),
  };
  if (st.isSymbolicLink()) entry.symlinkTarget = fs.readlinkSync(host);
  return entry;
}

function resolved(p) {
  try {
    return resolvePath(p);
  } catch (e) {
    throw new ConnectError(e.message, Code.InvalidArgument);
  }
}

function directoryOf(sb, p) {
  let st;
  try {
    st = fs.statSync(sb.hostPath(p));
  } catch (e) {
    if (e.code === "ENOENT") throw new ConnectError(`directory not found: ${p}`, Code.NotFound);
    throw new ConnectError(`error getting file info: ${e.message}`, Code.Internal);
  }
  if (!st.isDirectory()) throw new ConnectError(`path is not a directory: ${p}`, Code.InvalidArgument);
}

// envd's walkDir: entries below `dir` down to `depth` levels, in lexical
// order, each named by the requested path (not the resolved one).
function walk(sb, dir, depth, out) {
  const names = fs.readdirSync(sb.hostPath(dir)).sort();
  for (const name of names) {
    const p = path.posix.join(dir, name);
    const e = entryInfo(sb, p);
    out.push(e);
    if (depth > 1 && e.type === FileType.DIRECTORY) walk(sb, p, depth - 1, out);
  }
}

export function filesystemService(sandboxOf) {
  return {
    async stat(req, ctx) {
      return { entry: entryInfo(sandboxOf(ctx), resolved(req.path)) };
    },

    async makeDir(req, ctx) {
      const sb = sandboxOf(ctx);
      const p = resolved(req.path);
      let st = null;
      try { st = fs.statSync(sb.hostPath(p)); } catch { /* absent: make it */ }
      if (st?.isDirectory()) throw new ConnectError(`directory already exists: ${p}`, Code.AlreadyExists);
      if (st) throw new ConnectError(`path already exists but it is not a directory: ${p}`, Code.InvalidArgument);
      fs.mkdirSync(sb.hostPath(p), { recursive: true, mode: 0o755 });
      return { entry: entryInfo(sb, p) };
    },

    async move(req, ctx) {
      const sb = sandboxOf(ctx);
      const src = resolved(req.source), dst = resolved(req.destination);
      fs.mkdirSync(sb.hostPath(path.posix.dirname(dst)), { recursive: true, mode: 0o755 });
      try {
        fs.renameSync(sb.hostPath(src, true), sb.hostPath(dst, true));
      } catch (e) {
        if (e.code === "ENOENT") throw new ConnectError(`source file not found: ${src}`, Code.NotFound);
        throw new ConnectError(`error renaming: ${e.message}`, Code.Internal);
      }
      return { entry: entryInfo(sb, dst) };
    },

    async listDir(req, ctx) {
      const sb = sandboxOf(ctx);
      const p = resolved(req.path);
      directoryOf(sb, p);
      const entries = [];
      walk(sb, p, req.depth || 1, entries);
      return { entries };
    },

    async remove(req, ctx) {
      const sb = sandboxOf(ctx);
      try {
        fs.rmSync(sb.hostPath(resolved(req.path), true), { recursive: true, force: true });
      } catch (e) {
        throw new ConnectError(`error removing file or directory: ${e.message}`, Code.Internal);
      }
      return {};
    },
  };
}
