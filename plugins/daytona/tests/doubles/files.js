// SPDX-License-Identifier: Apache-2.0
// The toolbox's file-system endpoints over a Sandbox, as Daytona's daemon
// serves them (apps/daemon/pkg/toolbox/fs @ b5a5d9e78, and the stored
// toolbox spec for upload-v2, which is newer than the last public daemon):
// a relative path is taken from the work dir; list is one level, entries
// in directory order; delete refuses a directory without recursive=true;
// folder is mkdir -p with an octal mode; download streams one file as
// application/octet-stream; upload-v2 takes multipart ("file") or a raw
// body and creates the parents; bulk-upload takes files[i].path then
// files[i].file parts; bulk-download answers a multipart body of "file"
// parts (and "error" parts for paths that failed).
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { resolvePath } from "./paths.js";
import { HttpError } from "./sessions.js";

function fsError(e, p) {
  if (e.code === "ENOENT") return new HttpError(404, `file not found: ${p}`, "FILE_NOT_FOUND");
  if (e.code === "EACCES" || e.code === "EPERM") return new HttpError(403, `permission denied: ${p}`, "FILE_ACCESS_DENIED");
  return new HttpError(400, e.message, "BAD_REQUEST");
}

function required(url, name) {
  const v = url.searchParams.get(name);
  if (!v) throw new HttpError(400, `${name} is required`, "BAD_REQUEST");
  return v;
}

// Go's os.FileMode.String(), enough for files, dirs and links.
function modeString(st) {
  const type = st.isDirectory() ? "d" : st.isSymbolicLink() ? "L" : "-";
  const bits = "rwxrwxrwx";
  let out = type;
  for (let i = 0; i < 9; i++) out += st.mode & (1 << (8 - i)) ? bits[i] : "-";
  return out;
}

function ownerName(uid) {
  return uid === 0 ? "root" : String(uid);
}

export function fileInfo(sb, p) {
  const st = fs.statSync(sb.hostPath(p));
  return {
    name: path.posix.basename(p),
    path: p,
    size: st.size,
    mode: modeString(st),
    modTime: st.mtime.toString(),
    modifiedAt: st.mtime.toISOString(),
    isDir: st.isDirectory(),
    owner: ownerName(st.uid),
    group: ownerName(st.gid),
    permissions: `0${(st.mode & 0o777).toString(8)}`,
  };
}

export function listFiles(sb, url) {
  const dir = resolvePath(url.searchParams.get("path") || ".");
  let names;
  try {
    names = fs.readdirSync(sb.hostPath(dir));
  } catch (e) {
    throw fsError(e, dir);
  }
  const out = [];
  for (const n of names) {
    try {
      out.push(fileInfo(sb, path.posix.join(dir, n)));
    } catch { /* vanished, or a dangling link: skipped as the daemon does */ }
  }
  return out;
}

export function getInfo(sb, url) {
  const p = resolvePath(required(url, "path"));
  try {
    return fileInfo(sb, p);
  } catch (e) {
    throw fsError(e, p);
  }
}

export function deleteFile(sb, url) {
  const p = resolvePath(required(url, "path"));
  const host = sb.hostPath(p, true);
  let st;
  try {
    st = fs.lstatSync(host);
  } catch (e) {
    throw fsError(e, p);
  }
  const recursive = url.searchParams.get("recursive") === "true";
  if (st.isDirectory() && !recursive)
    throw new HttpError(400, "cannot delete directory without recursive flag", "BAD_REQUEST");
  try {
    if (recursive) fs.rmSync(host, { recursive: true, force: true });
    else fs.unlinkSync(host);
  } catch (e) {
    throw fsError(e, p);
  }
}

export function createFolder(sb, url) {
  const p = resolvePath(required(url, "path"));
  const mode = url.searchParams.get("mode");
  let perm = 0o755;
  if (mode) {
    if (!/^[0-7]+$/.test(mode)) throw new HttpError(400, "invalid mode format", "BAD_REQUEST");
    perm = Number.parseInt(mode, 8);
  }
  try {
    fs.mkdirSync(sb.hostPath(p), { recursive: true, mode: perm });
  } catch (e) {
    throw fsError(e, p);
  }
}

// POST /files/permissions: the daemon chmods (and chowns) the path. The
// double changes the mode only; an owner or group it refuses, rather than
// pretend to have changed them.
export function setPermissions(sb, url) {
  const p = resolvePath(required(url, "path"));
  if (url.searchParams.get("owner") || url.searchParams.get("group"))
    throw new HttpError(400, "the double does not change owners", "BAD_REQUEST");
  const mode = url.searchParams.get("mode");
  if (!mode) return;
  if (!/^[0-7]+$/.test(mode)) throw new HttpError(400, "invalid mode format", "BAD_REQUEST");
  try {
    fs.chmodSync(sb.hostPath(p), Number.parseInt(mode, 8) & 0o7777);
  } catch (e) {
    throw fsError(e, p);
  }
}

export async function download(sb, url, res) {
  const p = resolvePath(required(url, "path"));
  const host = sb.hostPath(p);
  let fd, st;
  try {
    fd = fs.openSync(host, "r");
    st = fs.fstatSync(fd);
  } catch (e) {
    if (fd !== undefined) fs.closeSync(fd);
    throw fsError(e, p);
  }
  if (st.isDirectory()) {
    fs.closeSync(fd);
    throw new HttpError(400, "path must be a file", "BAD_REQUEST");
  }
  const name = path.posix.basename(p);
  res.writeHead(200, {
    "Content-Type": "application/octet-stream",
    "Content-Length": st.size,
    "Content-Disposition": `attachment; filename="${name.replace(/["\\\r\n]/g, "_")}"; filename*=utf-8''${encodeURIComponent(name)}`,
  });
  await pipeline(fs.createReadStream(null, { fd }), res);
}

// Writes `body` to in-sandbox path `p`, creating the parents.
async function writeTo(sb, p, body) {
  fs.mkdirSync(sb.hostPath(path.posix.dirname(p)), { recursive: true, mode: 0o755 });
  const host = sb.hostPath(p);
  if (fs.existsSync(host) && fs.statSync(host).isDirectory())
    throw new HttpError(400, `path is a directory: ${p}`, "BAD_REQUEST");
  let n = 0;
  body.on("data", (d) => { n += d.length; });
  await pipeline(body, fs.createWriteStream(host, { mode: 0o644 }));
  return n;
}

export async function uploadV2(sb, url, req) {
  const p = resolvePath(required(url, "path"));
  const type = req.headers["content-type"] || "";
  if (type.startsWith("multipart/form-data")) {
    let done = null;
    const bb = busboy({ headers: req.headers });
    bb.on("file", (name, stream) => {
      if (name !== "file" || done) { stream.resume(); return; }
      done = writeTo(sb, p, stream);
    });
    await pipeline(req, bb);
    if (!done) throw new HttpError(400, "http: no such file", "BAD_REQUEST");
    await done;
  } else {
    await writeTo(sb, p, req);
  }
  return { name: path.posix.basename(p), path: p, type: "file" };
}

export async function bulkUpload(sb, req) {
  const dests = new Map();
  const jobs = [];
  const errors = [];
  const bb = busboy({ headers: req.headers, limits: { fieldSize: 1 << 20 } });
  const index = (name) => (/\[(\d+)\]/.exec(name) || [])[1] ?? "";
  bb.on("field", (name, value) => {
    if (name.endsWith(".path")) dests.set(index(name), value.trim());
  });
  bb.on("file", (name, stream) => {
    const dest = dests.get(index(name));
    if (!name.endsWith(".file") || !dest) {
      if (name.endsWith(".file")) errors.push(`file[${index(name)}]: missing .path metadata`);
      stream.resume();
      return;
    }
    jobs.push(writeTo(sb, resolvePath(dest), stream).then(
      (bytes) => ({ path: dest, bytes }),
      (e) => { errors.push(`${dest}: ${e.message}`); return null; }));
  });
  await pipeline(req, bb);
  const files = (await Promise.all(jobs)).filter(Boolean);
  if (errors.length) throw new HttpError(400, errors.join("; "), "BAD_REQUEST");
  return { files };
}

export async function bulkDownload(sb, body, res) {
  if (!body || !Array.isArray(body.paths) || body.paths.length === 0)
    throw new HttpError(400, 'request body must be {"paths": [ ... ]} and non-empty', "BAD_REQUEST");
  const boundary = "DAYTONA-FILE-BOUNDARY";
  res.writeHead(200, { "Content-Type": `multipart/form-data; boundary=${boundary}` });
  for (const src of body.paths) {
    const disp = (name) => `Content-Disposition: form-data; name="${name}"; filename="${src.replace(/["\\\r\n]/g, "_")}"; filename*=utf-8''${encodeURIComponent(src)}\r\n`;
    const p = resolvePath(src);
    let fd, st;
    try {
      fd = fs.openSync(sb.hostPath(p), "r");
      st = fs.fstatSync(fd);
      if (st.isDirectory()) throw Object.assign(new Error(`invalid file path: path points to a directory: ${src}`), { code: "EISDIR" });
    } catch (e) {
      if (fd !== undefined) fs.closeSync(fd);
      const err = e.code === "EISDIR" ? new HttpError(400, e.message, "BAD_REQUEST") : fsError(e, src);
      const payload = JSON.stringify({ statusCode: err.status, message: err.message, code: err.code,
        timestamp: new Date().toISOString(), path: src, method: "POST" });
      res.write(`--${boundary}\r\n${disp("error")}Content-Type: application/json; charset=utf-8\r\n\r\n${payload}\r\n`);
      continue;
    }
    res.write(`--${boundary}\r\n${disp("file")}Content-Type: application/octet-stream\r\nContent-Length: ${st.size}\r\n\r\n`);
    await pipeline(fs.createReadStream(null, { fd }), res, { end: false });
    res.write("\r\n");
  }
  res.end(`--${boundary}--\r\n`);
}
