#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Under --network allowlist, an allowed name that resolves to one of the
# host's own addresses (any interface's, not only loopback: here the host's
# end of a veth pair this test makes, 198.18.x.1, and an IPv6 documentation
# address it adds there) is refused with its reason, logged and counted, as
# --network open refuses it; the same address listed itself is reached. An
# address the host gains while the proxy runs (198.18.x.3, added with a
# server on it once the proxy is up) is refused too. Names come from a
# resolver file (test mode). Needs root (netns.sh).
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
SBX_TEST_NET_PREFIX=198.18.$(($$ % 250)).
. "$SBX_TEST_SRCDIR/plugins/local/tests/netns.sh"

v6=2001:db8:$(($$ % 9000 + 1000))::1
ip -6 addr add "$v6/64" dev "h$link" nodad
mkdir "$work/host"
echo host-page >"$work/host/index.html"
serve "${net}1" 8080 "$work/host" -m http.server
serve "${net}1" 8081 "$work/host" -m http.server

cat >"$work/hosts" <<HOSTS
${net}1 self.test listed.test
${net}3 late.test
$v6 self6.test
HOSTS
cat >"$work/client.py" <<'PY'
import socket
def raw(case, request):
    data = b""
    try:
        s = socket.create_connection(("127.0.0.1", 3128), 5)
        s.sendall(request.encode())
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except OSError as e:
        data += b"\r\nerror " + str(e).encode()
    lines = [l for l in data.decode(errors="replace").split("\r\n") if l]
    answer = "%s | %s" % (lines[0] if lines else "", lines[-1].strip() if lines else "")
    if case:
        print("%s: %s" % (case, answer))
    return answer
raw("self", "GET http://self.test:8080/ HTTP/1.1\r\nHost: self.test:8080\r\n\r\n")
raw("self-connect", "CONNECT self.test:8080 HTTP/1.1\r\n\r\n")
raw("self6", "GET http://self6.test:8080/ HTTP/1.1\r\nHost: self6.test:8080\r\n\r\n")
raw("listed", "GET http://listed.test:8081/ HTTP/1.1\r\nHost: listed.test:8081\r\nConnection: close\r\n\r\n")
# Until the test has given the host late.test's address and a server on it:
# each try before that fails to connect (502).
import time
deadline = time.monotonic() + 60
while True:
    answer = raw(None, "GET http://late.test:8082/ HTTP/1.1\r\nHost: late.test:8082\r\n\r\n")
    if " 502 " not in answer or time.monotonic() > deadline:
        break
    time.sleep(0.2)
print("late: " + answer)
PY
SANDBOXIO_TEST_MODE=1 SANDBOXIO_PROXY_TEST_RESOLVER=$work/hosts \
    "$b/src/sandboxio" run --json --dsn local:// --network allowlist \
    --allow-host self.test:8080 --allow-host self6.test:8080 \
    --allow-host listed.test:8081 --allow-host "${net}1:8081" --allow-host late.test:8082 -- \
    python3 -c "$(cat "$work/client.py")" >"$work/json" 2>"$work/err" </dev/null &
client=$!
server_pids="$server_pids $client"
i=0
# Once the proxy has listed the host's addresses: it is under its filter.
until proxy=$(pgrep -f "sandboxio-local-proxy.*late.test:8082") \
        && grep -q "^Seccomp:.*2" "/proc/$proxy/status" 2>/dev/null; do
    kill -0 "$client" 2>/dev/null || fail "the run ended before its proxy was seen"
    i=$((i + 1)); [ $i -lt 300 ] || fail "no proxy in 30 s"; sleep 0.1
done
ip addr add "${net}3/32" dev "h$link"
serve "${net}3" 8082 "$work/host" -m http.server
wait "$client" || fail "run exited $?"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["stdout"], end=""); print("net_refused: %d" % r["net_refused"])' \
    "$work/json" >"$work/out"
cat "$work/out"
expect() { grep -qx "$1" "$work/out" || fail "expected the line '$1'"; }
expect "self: HTTP/1.1 403 Forbidden | sandboxio proxy: self.test resolves to ${net}1, an address of this host, which is not on the allowlist"
expect "self-connect: HTTP/1.1 403 Forbidden | sandboxio proxy: self.test resolves to ${net}1, an address of this host, which is not on the allowlist"
expect "self6: HTTP/1.1 403 Forbidden | sandboxio proxy: self6.test resolves to $v6, an address of this host, which is not on the allowlist"
expect "listed: HTTP/1.0 200 OK | host-page"
expect "late: HTTP/1.1 403 Forbidden | sandboxio proxy: late.test resolves to ${net}3, an address of this host, which is not on the allowlist"
# Counted: the four, and the late tries that could not connect (502).
[ "$(sed -n 's/^net_refused: //p' "$work/out")" -ge 4 ] || fail "the refusals were not counted"
[ "$(grep -c "proxy refused: .*an address of this host" "$work/err")" -eq 4 ] || fail "the refusals were not logged"
echo "PASS: a name leading to the host's own address is refused unless the address is listed"
