# SPDX-License-Identifier: Apache-2.0
# Runs INSIDE a local sandbox under --network allowlist (see
# run-network-allowlist-holds.sh): one line "CASE: RESULT" per attempt.
# argv: the test CA (PEM text), the test server's address.
import os, socket, ssl, sys, threading, urllib.request

ca, addr = sys.argv[1], sys.argv[2]
PROXY = ("127.0.0.1", 3128)


def say(case, result):
    print("%s: %s" % (case, result), flush=True)


def raw(request):
    """The proxy's answer to one raw request: its status line and last body line."""
    s = socket.create_connection(PROXY, 5)
    s.sendall(request.encode())
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    text = data.decode(errors="replace")
    lines = [l for l in text.split("\r\n") if l]
    return "%s | %s" % (lines[0] if lines else "", text.strip().split("\n")[-1])


def get(url, **kw):
    try:
        return urllib.request.urlopen(url, timeout=10, **kw).read().decode().strip()
    except Exception as e:
        return "error %s" % e


env = ["%s=%s" % (k, os.environ.get(k)) for k in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")]
say("env", " ".join(env))
ctx = ssl.create_default_context(cadata=ca)
say("allowed-http", get("http://allowed.test:8080/"))
say("allowed-https", get("https://allowed.test:8443/", context=ctx))
say("wildcard", get("http://a.wild.test:8080/"))
say("other-name", raw("GET http://other.test:8080/ HTTP/1.1\r\nHost: other.test\r\n\r\n"))
say("other-port", raw("CONNECT allowed.test:9090 HTTP/1.1\r\nHost: allowed.test\r\n\r\n"))
say("ip-literal", raw("GET http://%s:8080/ HTTP/1.1\r\nHost: x\r\n\r\n" % addr))
say("private-answer", raw("GET http://private.test:8080/ HTTP/1.1\r\nHost: private.test\r\n\r\n"))
say("metadata-answer", raw("CONNECT meta.test:8443 HTTP/1.1\r\n\r\n"))
say("bad-request", raw("GARBAGE\r\n\r\n"))

# CONNECT to an allowed name, then TLS naming another host.
try:
    s = socket.create_connection(PROXY, 5)
    s.sendall(b"CONNECT allowed.test:8443 HTTP/1.1\r\n\r\n")
    head = s.recv(4096)
    t = ctx.wrap_socket(s, server_hostname="other.test")
    say("sni-mismatch", "handshake completed: %r" % head)
except Exception as e:
    say("sni-mismatch", "refused %s" % type(e).__name__)

# No name resolution, and no way past the proxy.
try:
    socket.getaddrinfo("allowed.test", 80)
    say("dns", "resolved")
except Exception as e:
    say("dns", "refused %s" % type(e).__name__)
try:
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.sendto(b"\x00" * 12, ("8.8.8.8", 53))
    say("dns-udp", "sent")
except OSError as e:
    say("dns-udp", "refused %s" % e.strerror)
try:
    socket.create_connection((addr, 8080), 5)
    say("direct-tcp", "connected")
except OSError as e:
    say("direct-tcp", "refused %s" % e.strerror)

# Many at once.
results = []
def one():
    results.append(get("http://allowed.test:8080/"))
threads = [threading.Thread(target=one) for _ in range(200)]
for t in threads:
    t.start()
for t in threads:
    t.join()
say("parallel", "%d of 200 ok" % sum(1 for r in results if r == "remote-page"))
for r in sorted(set(results) - {"remote-page"}):
    say("parallel-failure", r)
