# SPDX-License-Identifier: Apache-2.0
# bench/local-net/netbench.py: the benchmark's server and client (run.sh).
#   serve ADDR PORT BYTES     each connection: BYTES of zeros (0: one byte), then close
#   bulk HOST PORT BYTES [proxy]    read BYTES: prints MB/s
#   setup HOST PORT COUNT [proxy]   COUNT connections, each to its first byte:
#                                   prints the median ms per connection
# "proxy": through the allowlist proxy inside a sandbox (CONNECT on 127.0.0.1:3128).
import socket, statistics, sys, threading, time


def serve(addr, port, nbytes):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, port))
    s.listen(1024)
    chunk = b"\0" * (1 << 20)
    def one(c):
        try:
            left = nbytes or 1
            while left > 0:
                n = c.send(chunk[:min(left, len(chunk))])
                left -= n
        except OSError:
            pass
        c.close()
    while True:
        c, _ = s.accept()
        threading.Thread(target=one, args=(c,), daemon=True).start()


def connect(host, port, proxy):
    if not proxy:
        return socket.create_connection((host, port))
    s = socket.create_connection(("127.0.0.1", 3128))
    s.sendall(("CONNECT %s:%d HTTP/1.1\r\n\r\n" % (host, port)).encode())
    head = b""
    while b"\r\n\r\n" not in head:
        d = s.recv(1)
        if not d:
            raise OSError("proxy closed: %r" % head)
        head += d
    if b" 200 " not in head.split(b"\r\n")[0]:
        raise OSError("proxy refused: %r" % head)
    return s


def bulk(host, port, nbytes, proxy):
    buf = bytearray(1 << 20)
    t = time.monotonic()
    s = connect(host, port, proxy)
    got = 0
    while True:
        n = s.recv_into(buf)
        if not n:
            break
        got += n
    dt = time.monotonic() - t
    if got != nbytes:
        raise SystemExit("bulk: got %d of %d bytes" % (got, nbytes))
    print("%.1f" % (got / dt / 1e6))


def setup(host, port, count, proxy):
    times = []
    for _ in range(count):
        t = time.monotonic()
        s = connect(host, port, proxy)
        if s.recv(1) != b"\0":
            raise SystemExit("setup: no first byte")
        times.append(time.monotonic() - t)
        s.close()
    print("%.3f" % (statistics.median(times) * 1000))


mode = sys.argv[1]
if mode == "serve":
    serve(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
elif mode == "bulk":
    bulk(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), len(sys.argv) > 5)
else:
    setup(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), len(sys.argv) > 5)
