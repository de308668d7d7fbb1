# SPDX-License-Identifier: Apache-2.0
# The allowlist proxy on its own (proxy-relays-and-keeps-bounds.sh): fd 3 a
# listening socket on 127.0.0.1, fd 4 its exit pipe, as the plugin gives
# them; upstream servers on 127.0.0.1 too. Prints one line per check and
# exits 1 at the first that fails.
#   proxy-relay.py PROXY
import hashlib, os, socket, sys, threading, time

proxy = sys.argv[1]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def server(handle):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    def loop():
        while True:
            c, _ = s.accept()
            threading.Thread(target=handle, args=(c,), daemon=True).start()
    threading.Thread(target=loop, daemon=True).start()
    return s.getsockname()[1]


def echo_at_end(c):
    """Read until the client's end, then send it all back and close."""
    data = bytearray()
    while True:
        d = c.recv(1 << 16)
        if not d:
            break
        data += d
    c.sendall(data)
    c.close()


def hold(c):
    """Read until the client's end, answering nothing, then close."""
    while c.recv(1 << 16):
        pass
    c.close()


def start(*args):
    lst = socket.socket()
    lst.bind(("127.0.0.1", 0))
    lst.listen(64)
    r, w = os.pipe()
    log_r, log_w = os.pipe()
    pid = os.posix_spawn(proxy, [proxy, *args], os.environ, file_actions=[
        (os.POSIX_SPAWN_DUP2, lst.fileno(), 3), (os.POSIX_SPAWN_DUP2, r, 4),
        (os.POSIX_SPAWN_DUP2, log_w, 2)])
    os.close(r)
    os.close(log_w)
    port = lst.getsockname()[1]
    lst.close()
    return pid, port, w, log_r


def tunnel(port, target):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(b"CONNECT %s HTTP/1.1\r\n\r\n" % target.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        d = s.recv(1)
        if not d:
            break
        head += d
    return s, head.split(b"\r\n")[0].decode()


def client_hello(*extensions):
    """A TLS 1.3 ClientHello record with these (type, body) extensions."""
    ext = b"".join(t.to_bytes(2, "big") + len(e).to_bytes(2, "big") + e for t, e in extensions)
    body = (b"\x03\x03" + bytes(32) + b"\x00" + b"\x00\x02\x13\x01" + b"\x01\x00"
            + len(ext).to_bytes(2, "big") + ext)
    hs = b"\x01" + len(body).to_bytes(3, "big") + body
    return b"\x16\x03\x01" + len(hs).to_bytes(2, "big") + hs


SUPPORTED_VERSIONS = (0x002b, b"\x02\x03\x04")
# encrypted_client_hello (0xfe0d), outer: type 0, HKDF-SHA256, AES-128-GCM,
# config id, a 32-byte enc, a payload: the server name it means is inside.
ECH = (0xfe0d, b"\x00\x00\x01\x00\x01\x07" + b"\x00\x20" + bytes(32) + b"\x00\x10" + bytes(16))


def read_all(s):
    out = bytearray()
    while True:
        d = s.recv(1 << 16)
        if not d:
            return bytes(out)
        out += d


echo = server(echo_at_end)
held = server(hold)
pid, port, exit_w, log_r = start("--max-conns", "2", "--idle-timeout", "1",
                                 "127.0.0.1:%d" % echo, "127.0.0.1:%d" % held)
time.sleep(0.3)
with open("/proc/%d/status" % pid) as f:
    seccomp = [l.split()[1] for l in f if l.startswith("Seccomp:")]
print("seccomp mode: %s" % seccomp[0])
if seccomp != ["2"]:
    fail("the proxy runs without its seccomp filter")

# 8 MiB each way, the client's end (SHUT_WR) passed on, then the answer.
data = b"\1" + os.urandom(8 << 20)
s, status = tunnel(port, "127.0.0.1:%d" % echo)
if " 200 " not in status + " ":
    fail("CONNECT refused: " + status)
t = threading.Thread(target=lambda: (s.sendall(data), s.shutdown(socket.SHUT_WR)))
t.start()
back = read_all(s)
t.join()
s.close()
if hashlib.sha256(back).digest() != hashlib.sha256(data).digest():
    fail("relayed %d bytes, %d came back different" % (len(data), len(back)))
print("relay: %d bytes each way, the end passed on" % len(data))

# A ClientHello offering Encrypted Client Hello is cut (its inner server
# name cannot be checked); the same ClientHello without it goes through.
for case, hello, through in (("plain", client_hello(SUPPORTED_VERSIONS), True),
                             ("ech", client_hello(SUPPORTED_VERSIONS, ECH), False)):
    s, status = tunnel(port, "127.0.0.1:%d" % echo)
    if " 200 " not in status + " ":
        fail("CONNECT refused: " + status)
    s.sendall(hello)
    s.shutdown(socket.SHUT_WR)
    try:
        back = read_all(s)
    except ConnectionResetError:
        back = b""
    s.close()
    if (back == hello) != through:
        fail("the %s ClientHello %s" % (case, "was cut" if through else "went through"))
print("tls: a ClientHello offering ECH is cut, the same without ECH goes through")

# A plain request whose Host header names another site than its target is
# refused (Host fronting); one naming its target goes through, in origin form.
def plain(host):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(b"GET http://127.0.0.1:%d/x HTTP/1.1\r\nHost: %s\r\n\r\n" % (echo, host.encode()))
    s.shutdown(socket.SHUT_WR)
    back = read_all(s).decode(errors="replace")
    s.close()
    return back


fronted = plain("other.test")
reason = "sandboxio proxy: 127.0.0.1:%d: the Host header names other.test, not the request's target" % echo
if not fronted.startswith("HTTP/1.1 403 ") or reason not in fronted:
    fail("a request fronting another host got: %r" % fronted)
other_port = plain("127.0.0.1:1")
if "the Host header names 127.0.0.1:1, not the request's target" not in other_port:
    fail("a request whose Host names another port got: %r" % other_port)
honest = plain("127.0.0.1:%d" % echo)
if honest != "GET /x HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % echo:
    fail("a request naming its target got: %r" % honest)
print("host: a Host naming another site is refused (403), one naming the target goes through")

# Nothing moves for the idle timeout (1 s): the proxy closes the tunnel.
s, status = tunnel(port, "127.0.0.1:%d" % held)
s.sendall(b"hello")
t0 = time.monotonic()
if read_all(s) != b"":
    fail("the held server answered")
quiet = time.monotonic() - t0
s.close()
if not 0.8 <= quiet <= 4:
    fail("an idle tunnel closed after %.1f s, not about 1 s" % quiet)
print("idle: closed after %.1f s" % quiet)

# At most 2 connections: a third is refused until one ends.
a, sa = tunnel(port, "127.0.0.1:%d" % held)
b, sb = tunnel(port, "127.0.0.1:%d" % held)
a.sendall(b"hello")
b.sendall(b"hello")
time.sleep(0.2)
c, sc = tunnel(port, "127.0.0.1:%d" % held)
# (refused as it is accepted, before its request is read: the rest may be cut by a reset)
if sc != "HTTP/1.1 503 Service Unavailable":
    fail("a third connection got '%s'" % sc)
c.close()
a.close()
time.sleep(0.3)
d, sd = tunnel(port, "127.0.0.1:%d" % held)
if " 200 " not in sd + " ":
    fail("after one ended, a connection got '%s'" % sd)
d.close()
b.close()
print("connections: a third refused (503), one more once one ended")

# Its exit pipe closed, the proxy ends (and nothing killed it).
os.close(exit_w)
deadline = time.monotonic() + 5
while time.monotonic() < deadline:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        break
    time.sleep(0.05)
else:
    os.kill(pid, 9)
    fail("the proxy outlived its exit pipe")
log = os.read(log_r, 65536).decode(errors="replace")
if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
    fail("the proxy ended with wait status %#x; its log: %s" % (status, log))
print("exit: 0 once its exit pipe closed")
ech = "proxy refused: CONNECT 127.0.0.1:%d: the TLS ClientHello is encrypted (ECH), " \
      "its server name cannot be checked" % echo
if ech not in log.splitlines():
    fail("the ECH refusal is not in the log: %s" % log)
print("log: the ECH refusal, with its reason")
