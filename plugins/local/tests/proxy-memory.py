# SPDX-License-Identifier: Apache-2.0
# The allowlist proxy's memory when the sandbox does not read
# (proxy-holds-bounded-memory-for-stalled-tunnels.sh): 100 tunnels through
# the proxy to a sender on 127.0.0.1 that never stops, read by nobody. What
# the proxy's sockets hold (ss's skmem: received and queued to send) stays
# under a bound; the sender is stopped by backpressure instead.
#   proxy-memory.py PROXY
import os, re, socket, subprocess, sys, threading, time

proxy = sys.argv[1]
CONNS = 100
# Bytes, for all of them: about 37 MiB (about 370 KiB a tunnel, as
# proxy.c's buffers make it), 390-760 MiB without them.
BOUND = 64 << 20


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def sender(c):
    chunk = b"x" * 65536
    try:
        while True:
            c.sendall(chunk)
    except OSError:
        pass


srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(CONNS)


def accept_loop():
    while True:
        c, _ = srv.accept()
        threading.Thread(target=sender, args=(c,), daemon=True).start()


threading.Thread(target=accept_loop, daemon=True).start()
target = "127.0.0.1:%d" % srv.getsockname()[1]

lst = socket.socket()
lst.bind(("127.0.0.1", 0))
lst.listen(CONNS)
exit_r, exit_w = os.pipe()
pid = os.posix_spawn(proxy, [proxy, target], {}, file_actions=[
    (os.POSIX_SPAWN_DUP2, lst.fileno(), 3), (os.POSIX_SPAWN_DUP2, exit_r, 4)])
os.close(exit_r)
port = lst.getsockname()[1]
lst.close()

tunnels = []
for _ in range(CONNS):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the sandbox holds little itself
    s.sendall(b"CONNECT %s HTTP/1.1\r\n\r\n" % target.encode())
    tunnels.append(s)


def held():
    """The proxy's TCP sockets and the bytes they hold."""
    out = subprocess.run(["ss", "-tmpnH"], capture_output=True, text=True, check=True).stdout
    lines = out.split("\n")
    n = total = 0
    for i, line in enumerate(lines):
        if "pid=%d," % pid not in line:
            continue
        m = re.search(r"skmem:\(r(\d+),rb\d+,t\d+,tb\d+,f\d+,w(\d+)", line + " " + (lines[i + 1] if i + 1 < len(lines) else ""))
        if m:
            n += 1
            total += int(m.group(1)) + int(m.group(2))
    return n, total


# Until the buffers are full: what they hold stops growing.
last, peak = -1, 0
for _ in range(40):
    time.sleep(0.25)
    n, total = held()
    peak = max(peak, total)
    if n == 2 * CONNS and total == last:
        break
    last = total
os.close(exit_w)
os.waitpid(pid, 0)
print("stalled: %d tunnels, the proxy's %d sockets hold %.1f MiB at most (bound %d MiB)"
      % (CONNS, n, peak / 2**20, BOUND >> 20))
if n != 2 * CONNS:
    fail("the proxy has %d sockets, not %d" % (n, 2 * CONNS))
if peak > BOUND:
    fail("the proxy holds %.1f MiB for %d stalled tunnels" % (peak / 2**20, CONNS))
