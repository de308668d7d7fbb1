#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Under --network allowlist, an allowed name that resolves to one of the
# host's own addresses (any interface's, not only loopback: here the host's
# end of a veth pair this test makes, 198.18.x.1, and an IPv6 documentation
# address it adds there) is refused with its reason, logged and counted, as
# --network open refuses it; the same address listed itself is reached.
# Names come from a resolver file (test mode). Needs root (netns.sh).
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
    print("%s: %s | %s" % (case, lines[0] if lines else "", lines[-1].strip() if lines else ""))
raw("self", "GET http://self.test:8080/ HTTP/1.1\r\nHost: self.test:8080\r\n\r\n")
raw("self-connect", "CONNECT self.test:8080 HTTP/1.1\r\n\r\n")
raw("self6", "GET http://self6.test:8080/ HTTP/1.1\r\nHost: self6.test:8080\r\n\r\n")
raw("listed", "GET http://listed.test:8081/ HTTP/1.1\r\nHost: listed.test:8081\r\nConnection: close\r\n\r\n")
PY
SANDBOXIO_TEST_MODE=1 SANDBOXIO_PROXY_TEST_RESOLVER=$work/hosts \
    "$b/src/sandboxio" run --json --dsn local:// --network allowlist \
    --allow-host self.test:8080 --allow-host self6.test:8080 \
    --allow-host listed.test:8081 --allow-host "${net}1:8081" -- \
    python3 -c "$(cat "$work/client.py")" >"$work/json" 2>"$work/err" </dev/null || fail "run exited $?"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["stdout"], end=""); print("net_refused: %d" % r["net_refused"])' \
    "$work/json" >"$work/out"
cat "$work/out"
expect() { grep -qx "$1" "$work/out" || fail "expected the line '$1'"; }
expect "self: HTTP/1.1 403 Forbidden | sandboxio proxy: self.test resolves to ${net}1, an address of this host, which is not on the allowlist"
expect "self-connect: HTTP/1.1 403 Forbidden | sandboxio proxy: self.test resolves to ${net}1, an address of this host, which is not on the allowlist"
expect "self6: HTTP/1.1 403 Forbidden | sandboxio proxy: self6.test resolves to $v6, an address of this host, which is not on the allowlist"
expect "listed: HTTP/1.0 200 OK | host-page"
expect "net_refused: 3"
[ "$(grep -c "proxy refused: .*an address of this host" "$work/err")" -eq 3 ] || fail "the refusals were not logged"
echo "PASS: a name leading to the host's own address is refused unless the address is listed"
