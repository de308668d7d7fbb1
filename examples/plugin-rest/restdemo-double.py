#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The restdemo service: the small REST API examples/plugin-rest talks to.

A stand-in for a cloud provider, for the example and its test: it listens
on 127.0.0.1 only, and a "sandbox" is a directory under --root where
commands run as plain host processes (no isolation at all, which is why
the backend declares tier none). The API, all under /v1, every request
with "Authorization: Bearer <key>":

  GET    /sandboxes                 {"sandboxes": [{"id", "labels"}]}
  POST   /sandboxes                 {"labels": {...}} -> 201 {"id", "labels"}
  DELETE /sandboxes/ID              kill its processes, remove its files; 204
  POST   /sandboxes/ID/exec         {"argv", "env", "cwd", "timeout_ms"} ->
                                    200, a stream of frames (below)
  GET    /sandboxes/ID/files?path=P the file's bytes
  PUT    /sandboxes/ID/files?path=P&mode=0644  write it (parents made); 204
  DELETE /sandboxes/ID/files?path=P[&recursive=1]  204
  POST   /sandboxes/ID/dirs?path=P  mkdir -p; 204
  GET    /sandboxes/ID/dirs?path=P  {"entries": [{"name", "type", "size", "mode"}]}

An exec answer is frames: one byte (1 stdout, 2 stderr, 0 the end), four
bytes of length (big-endian), the bytes. The end frame holds JSON:
{"exited", "exit_code", "signal", "timed_out"}. "env" is the whole
environment, but HOME is the sandbox's directory unless it names one. A client that goes away
ends the command: its whole process group is killed.

Errors are JSON {"code", "message"} with an HTTP status: 401 a wrong key,
404 an unknown sandbox or path, 422 a refused operation (the code says
which: path_escape, is_directory, not_directory, not_empty, not_regular,
command_not_found, command_denied, bad_cwd).
"""

import argparse
import json
import os
import secrets
import selectors
import shutil
import signal
import stat
import struct
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

CHUNK = 65536
# After a command's leader exits its group is killed; what a process that
# left the group still holds open is waited for this long at most.
DRAIN_GRACE_S = 1.0


class ApiError(Exception):
    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class Sandbox:
    def __init__(self, sid, root, labels):
        self.id, self.root, self.labels = sid, root, labels
        self.sessions = set()  # session ids of its commands, to kill at the end
        self.lock = threading.Lock()

    def resolve(self, rel, must_exist=True, follow_last=True):
        """The host path of rel under the sandbox root, refusing any way out.

        The core already refused "..", absolute paths and empty components;
        what is left to refuse are symlinks planted inside that lead out.
        """
        if not rel:
            return self.root
        parent, last = os.path.split(os.path.join(self.root, rel))
        real_parent = os.path.realpath(parent)
        if not inside(real_parent, self.root):
            raise ApiError(422, "path_escape", f"{rel}: leads out of the sandbox")
        real = os.path.join(real_parent, last)
        if follow_last and os.path.islink(real):
            real = os.path.realpath(real)
            if not inside(real, self.root):
                raise ApiError(422, "path_escape", f"{rel}: leads out of the sandbox")
        if must_exist and not os.path.lexists(real):
            raise ApiError(404, "not_found", f"{rel}: no such file or directory")
        return real


def inside(path, root):
    return path == root or path.startswith(root + os.sep)


def kill_sessions(sessions):
    """SIGKILL every process of these sessions, wherever its group went."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[3]) in sessions:  # field 6 of stat: the session id
                os.kill(int(entry), signal.SIGKILL)
        except (OSError, IndexError, ValueError):
            pass


class Service:
    def __init__(self, root, key):
        self.root, self.key = os.path.realpath(root), key
        self.sandboxes = {}
        self.lock = threading.Lock()

    def get(self, sid):
        with self.lock:
            sb = self.sandboxes.get(sid)
        if sb is None:
            raise ApiError(404, "not_found", f"no sandbox {sid}")
        return sb

    def create(self, labels):
        sid = "rd-" + secrets.token_hex(8)
        root = os.path.join(self.root, sid)
        os.mkdir(root, 0o755)
        sb = Sandbox(sid, root, labels)
        with self.lock:
            self.sandboxes[sid] = sb
        return sb

    def destroy(self, sid):
        with self.lock:
            sb = self.sandboxes.pop(sid, None)
        if sb is None:
            raise ApiError(404, "not_found", f"no sandbox {sid}")
        with sb.lock:
            kill_sessions(set(sb.sessions))
        shutil.rmtree(sb.root, ignore_errors=True)


class Handler(BaseHTTPRequestHandler):
    server_version = "restdemo/1"

    def log_message(self, fmt, *args):  # quiet: the test reads only the plugin's side
        pass

    # --- plumbing ---------------------------------------------------------
    def reply(self, status, doc=None, body=None, ctype="application/json"):
        data = body if body is not None else (json.dumps(doc).encode() if doc is not None else b"")
        self.send_response(status)
        if data or status != 204:
            self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if data:
            self.wfile.write(data)

    def body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            return self.chunked_body()  # a streamed upload: its size was not sent
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def chunked_body(self):
        data = bytearray()
        while True:
            size = int(self.rfile.readline().split(b";")[0], 16)
            chunk = self.rfile.read(size + 2)  # the bytes and their CRLF
            if size == 0:
                return bytes(data)
            data += chunk[:-2]

    def route(self, method):
        svc = self.server.service
        try:
            auth = self.headers.get("Authorization")
            if auth != f"Bearer {svc.key}":
                # Echoed back, as some providers do: the client must not repeat it.
                raise ApiError(401, "unauthorized", f"unknown API key in {auth!r}")
            url = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
            parts = url.path.strip("/").split("/")
            if parts[:2] != ["v1", "sandboxes"]:
                raise ApiError(404, "not_found", f"no route {url.path}")
            handler = {
                ("GET", 2): self.list_sandboxes,
                ("POST", 2): self.create_sandbox,
                ("DELETE", 3): self.delete_sandbox,
                ("POST", 4, "exec"): self.exec_command,
                ("GET", 4, "files"): self.read_file,
                ("PUT", 4, "files"): self.write_file,
                ("DELETE", 4, "files"): self.remove_file,
                ("POST", 4, "dirs"): self.make_dir,
                ("GET", 4, "dirs"): self.list_dir,
            }.get((method, len(parts)) + ((parts[3],) if len(parts) == 4 else ()))
            if handler is None:
                raise ApiError(404, "not_found", f"no route {method} {url.path}")
            handler(svc, parts[2] if len(parts) > 2 else None, query)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client stopped reading: nothing to tell it
        except ApiError as e:
            self.reply(e.status, {"code": e.code, "message": e.message})

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_PUT(self):
        self.route("PUT")

    def do_DELETE(self):
        self.route("DELETE")

    # --- sandboxes --------------------------------------------------------
    def list_sandboxes(self, svc, _sid, _query):
        with svc.lock:
            items = [{"id": sb.id, "labels": sb.labels} for sb in svc.sandboxes.values()]
        self.reply(200, {"sandboxes": items})

    def create_sandbox(self, svc, _sid, _query):
        labels = json.loads(self.body() or b"{}").get("labels") or {}
        sb = svc.create({str(k): str(v) for k, v in labels.items()})
        self.reply(201, {"id": sb.id, "labels": sb.labels})

    def delete_sandbox(self, svc, sid, _query):
        svc.destroy(sid)
        self.reply(204)

    # --- exec -------------------------------------------------------------
    def frame(self, stream, data):
        self.wfile.write(struct.pack(">BI", stream, len(data)) + data)

    def exec_command(self, svc, sid, _query):
        sb = svc.get(sid)
        req = json.loads(self.body() or b"{}")
        argv = req.get("argv") or []
        env = dict(e.split("=", 1) for e in req.get("env") or [] if "=" in e)
        env.setdefault("HOME", sb.root)  # the work directory, unless the command says otherwise
        cwd = sb.resolve(req.get("cwd") or "", must_exist=False)
        if not os.path.isdir(cwd):
            raise ApiError(422, "bad_cwd", f"no directory {req.get('cwd')}")
        try:
            proc = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    start_new_session=True)
        except FileNotFoundError:
            raise ApiError(422, "command_not_found", f"{argv[0]}: command not found")
        except PermissionError:
            raise ApiError(422, "command_denied", f"{argv[0]}: permission denied")
        with sb.lock:
            sb.sessions.add(proc.pid)
        self.send_response(200)
        self.send_header("Content-Type", "application/vnd.restdemo.frames")
        self.end_headers()  # no length: the answer ends when the connection closes
        self.close_connection = True
        end = self.pump(proc, req.get("timeout_ms") or 0)
        if end is not None:
            self.frame(0, json.dumps(end).encode())

    def pump(self, proc, timeout_ms):
        """Send the command's output as it comes; its end, or None if the client left."""
        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ, 1)
        sel.register(proc.stderr, selectors.EVENT_READ, 2)
        sel.register(self.connection, selectors.EVENT_READ, 0)
        deadline = time.monotonic() + timeout_ms / 1000 if timeout_ms else None
        drain_end = None
        timed_out = False
        open_pipes = 2
        try:
            while open_pipes:
                now = time.monotonic()
                if deadline and now >= deadline and not timed_out:
                    timed_out = True
                    kill_group(proc.pid)
                if proc.poll() is not None and drain_end is None:
                    kill_group(proc.pid)  # the leader is gone: so is its group
                    drain_end = now + DRAIN_GRACE_S
                if drain_end and now >= drain_end:
                    break
                for key, _ in sel.select(timeout=0.05):
                    if key.data == 0:  # the client sent something or went away
                        if not self.connection.recv(1, 0x2):  # MSG_PEEK
                            return None
                        continue
                    data = os.read(key.fileobj.fileno(), CHUNK)
                    if data:
                        self.frame(key.data, data)
                    else:
                        sel.unregister(key.fileobj)
                        open_pipes -= 1
            code = proc.wait()
            return {"exited": code >= 0 and not timed_out, "exit_code": max(code, 0),
                    "signal": -code if code < 0 else 0, "timed_out": timed_out}
        except OSError:  # the client went away while we wrote
            return None
        finally:
            sel.close()
            kill_group(proc.pid)
            proc.stdout.close()
            proc.stderr.close()
            proc.wait()

    # --- files ------------------------------------------------------------
    def read_file(self, svc, sid, query):
        path = svc.get(sid).resolve(query.get("path", ""))
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            raise ApiError(422, "is_directory", f"{query.get('path')} is a directory")
        if not stat.S_ISREG(st.st_mode):
            raise ApiError(422, "not_regular", f"{query.get('path')} is not a regular file")
        with open(path, "rb") as f:
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(st.st_size))
            self.end_headers()
            shutil.copyfileobj(f, self.wfile, CHUNK)

    def write_file(self, svc, sid, query):
        sb = svc.get(sid)
        rel = query.get("path", "")
        data = self.body()
        make_parents(sb, rel)
        path = sb.resolve(rel, must_exist=False)
        if os.path.isdir(path):
            raise ApiError(422, "is_directory", f"{rel} is a directory")
        if os.path.lexists(path) and not stat.S_ISREG(os.stat(path).st_mode):
            raise ApiError(422, "not_regular", f"{rel} is not a regular file")
        mode = int(query.get("mode") or "644", 8) & 0o7777
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, mode)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(path, mode)  # whatever the umask
        self.reply(204)

    def remove_file(self, svc, sid, query):
        rel = query.get("path", "")
        path = svc.get(sid).resolve(rel, follow_last=False)
        if os.path.isdir(path) and not os.path.islink(path):
            if query.get("recursive") == "1":
                shutil.rmtree(path)
            elif os.listdir(path):
                raise ApiError(422, "not_empty", f"{rel} is not empty")
            else:
                os.rmdir(path)
        else:
            os.unlink(path)
        self.reply(204)

    def make_dir(self, svc, sid, query):
        make_parents(svc.get(sid), query.get("path", "") + "/.")
        self.reply(204)

    def list_dir(self, svc, sid, query):
        path = svc.get(sid).resolve(query.get("path", ""))
        if not os.path.isdir(path):
            raise ApiError(422, "not_directory", f"{query.get('path')} is not a directory")
        entries = []
        for name in sorted(os.listdir(path)):
            st = os.lstat(os.path.join(path, name))
            kind = (1 if stat.S_ISREG(st.st_mode) else 2 if stat.S_ISDIR(st.st_mode)
                    else 3 if stat.S_ISLNK(st.st_mode) else 4)
            entries.append({"name": name, "type": kind, "size": st.st_size,
                            "mode": stat.S_IMODE(st.st_mode)})
        self.reply(200, {"entries": entries})


def make_parents(sb, rel):
    """mkdir -p of rel's parent, one checked component at a time."""
    parts = rel.split("/")[:-1]
    for i in range(1, len(parts) + 1):
        sub = "/".join(parts[:i])
        path = sb.resolve(sub, must_exist=False)
        if not os.path.lexists(path):
            os.mkdir(path, 0o755)
        elif not os.path.isdir(path):
            raise ApiError(422, "not_directory", f"{sub} is not a directory")


def kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True, help="where sandboxes' directories go")
    ap.add_argument("--key", required=True, help="the API key clients must send")
    ap.add_argument("--port", type=int, default=0, help="0: any free port")
    ap.add_argument("--port-file", help="write the port chosen here once listening")
    args = ap.parse_args()
    # Commands start with no signal ignored, and exec keeps what is ignored:
    # a shell that started this in the background ignored SIGINT and SIGQUIT.
    for sig in (signal.SIGINT, signal.SIGQUIT):
        if signal.getsignal(sig) == signal.SIG_IGN:
            signal.signal(sig, signal.SIG_DFL)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.service = Service(args.root, args.key)
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write(f"{server.server_address[1]}\n")
        os.rename(args.port_file + ".tmp", args.port_file)
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    server.serve_forever()
    for sid in list(server.service.sandboxes):
        server.service.destroy(sid)


if __name__ == "__main__":
    main()
