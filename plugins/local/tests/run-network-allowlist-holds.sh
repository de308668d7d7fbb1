#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio run --dsn local:// --network allowlist --allow-host ...`: the
# egress proxy is the sandbox's only way out, and it holds. Against an HTTP
# and an HTTPS server (a test CA) in a network namespace this test makes,
# reached under test names from a resolver file (test mode): an allowed
# name and port answer, through HTTP_PROXY/HTTPS_PROXY as set inside, and
# a wildcard's subdomain too; another name, another port, an unlisted IP
# literal, a name resolving to a private or a metadata address, a bad
# request: each a 403 (400) with its reason; a CONNECT whose TLS SNI names
# another host is cut and logged; no DNS from inside, no direct TCP. 200
# parallel requests through the proxy complete; a run's result counts the
# refusals made while it ran (run --json "net_refused"); and no proxy is
# left after the run, nor after its client is SIGKILLed.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
SBX_TEST_NET_PREFIX=198.18.$(($$ % 250)).
. "$SBX_TEST_SRCDIR/plugins/local/tests/netns.sh"
command -v openssl >/dev/null || skip "openssl is not installed"

# A test CA and a certificate for allowed.test and other.test.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=sandboxio-test-ca \
    -keyout "$work/ca.key" -out "$work/ca.pem" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj /CN=allowed.test \
    -keyout "$work/srv.key" -out "$work/srv.csr" 2>/dev/null
printf 'subjectAltName=DNS:allowed.test,DNS:other.test\n' >"$work/san"
openssl x509 -req -in "$work/srv.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" \
    -CAcreateserial -days 1 -extfile "$work/san" -out "$work/srv.pem" 2>/dev/null
# The servers: threaded, with a backlog for 200 connections at once.
cat >"$work/srv.py" <<PY
import http.server, ssl, sys, functools
mode, a, d, port = sys.argv[1], sys.argv[3], sys.argv[5], int(sys.argv[6])
class Server(http.server.ThreadingHTTPServer):
    request_queue_size = 1024
s = Server((a, port), functools.partial(http.server.SimpleHTTPRequestHandler, directory=d))
if mode == "tls":
    c = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    c.load_cert_chain("$work/srv.pem", "$work/srv.key")
    s.socket = c.wrap_socket(s.socket, server_side=True)
s.serve_forever()
PY
mkdir "$work/remote"
echo remote-page >"$work/remote/index.html"
serve netns "${net}2" 8080 "$work/remote" "$work/srv.py" plain
serve netns "${net}2" 9090 "$work/remote" "$work/srv.py" plain
serve netns "${net}2" 8443 "$work/remote" "$work/srv.py" tls

cat >"$work/hosts" <<HOSTS
${net}2 allowed.test other.test a.wild.test
10.11.12.13 private.test
169.254.169.254 meta.test
HOSTS
SANDBOXIO_TEST_MODE=1 SANDBOXIO_PROXY_TEST_RESOLVER=$work/hosts \
    "$b/src/sandboxio" run --dsn local:// --network allowlist \
    --allow-host allowed.test:8080 --allow-host allowed.test:8443 \
    --allow-host private.test:8080 --allow-host meta.test:8443 --allow-host '*.wild.test:8080' -- \
    python3 -c "$(cat "$SBX_TEST_SRCDIR/plugins/local/tests/allowlist-client.py")" \
    "$(cat "$work/ca.pem")" "${net}2" >"$work/out" 2>"$work/err" </dev/null || fail "run exited $?"
cat "$work/out"
expect() { grep -qx "$1" "$work/out" || fail "expected the line '$1'"; }
expect "env: HTTP_PROXY=http://127.0.0.1:3128 HTTPS_PROXY=http://127.0.0.1:3128 ALL_PROXY=http://127.0.0.1:3128 NO_PROXY="
expect "allowed-http: remote-page"
expect "allowed-https: remote-page"
expect "wildcard: remote-page"
expect "other-name: HTTP/1.1 403 Forbidden | sandboxio proxy: other.test:8080 is not on the allowlist"
expect "other-port: HTTP/1.1 403 Forbidden | sandboxio proxy: allowed.test:9090 is not on the allowlist"
expect "ip-literal: HTTP/1.1 403 Forbidden | sandboxio proxy: ${net}2:8080 is not on the allowlist (an address must be listed itself)"
expect "private-answer: HTTP/1.1 403 Forbidden | sandboxio proxy: private.test resolves to 10.11.12.13, a private address (10/8), which is not on the allowlist"
expect "metadata-answer: HTTP/1.1 403 Forbidden | sandboxio proxy: meta.test resolves to 169.254.169.254, a link-local or metadata address (169.254/16), which is not on the allowlist"
expect "bad-request: HTTP/1.1 400 Bad Request | sandboxio proxy: bad request: bad request method"
grep -qx "sni-mismatch: refused .*" "$work/out" || fail "a mismatched SNI got through"
grep -q "proxy refused: CONNECT allowed.test:8443: the TLS ClientHello names 'other.test' (SNI), not allowed.test" \
    "$work/err" || fail "the SNI refusal was not logged through the host"
grep -qx "dns: refused .*" "$work/out" || fail "a name resolved inside"
expect "dns-udp: refused Network is unreachable"
expect "direct-tcp: refused Network is unreachable"
expect "parallel: 200 of 200 ok"
[ "$(grep -c "proxy refused: " "$work/err")" -ge 7 ] || fail "refusals missing from the log"
# The result counts the refusals made while the command ran: here two
# (another name, another port), not the allowed request.
cat >"$work/three.py" <<PY
import urllib.request
for url in ("http://allowed.test:8080/", "http://other.test:8080/", "http://allowed.test:9090/"):
    try:
        urllib.request.urlopen(url, timeout=10).read()
    except Exception:
        pass
PY
SANDBOXIO_TEST_MODE=1 SANDBOXIO_PROXY_TEST_RESOLVER=$work/hosts \
    "$b/src/sandboxio" run --json --dsn local:// --network allowlist \
    --allow-host allowed.test:8080 -- python3 -c "$(cat "$work/three.py")" \
    >"$work/json" 2>"$work/json-err" </dev/null || fail "the counted run exited $?"
refused=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["net_refused"])' "$work/json")
[ "$refused" = 2 ] || fail "the result counts $refused refused connections, not 2"
[ "$(grep -c "proxy refused: " "$work/json-err")" -eq 2 ] || fail "the two refusals were not logged"
echo "net_refused: $refused"
left=$(pgrep -f "sandboxio-local-proxy.*allowed.test:8080" || true)
[ -z "$left" ] || fail "a proxy was left behind: $left"
# A SIGKILLed client takes its proxy along.
"$b/src/sandboxio" run --dsn local:// --network allowlist --allow-host killed.test:8080 -- \
    sleep 60 >/dev/null 2>&1 </dev/null &
client=$!
server_pids="$server_pids $client"
dies_with_client "$client" -f "sandboxio-local-proxy killed.test:8080"
echo "PASS: the allowlist holds: allowed names answer, every other way out is refused with its reason"
