#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# docker://host:port speaks TLS to a daemon when DOCKER_TLS_VERIFY is set,
# verifying it against $DOCKER_CERT_PATH/ca.pem and presenting the client
# certificate there; a command's stdin and output cross the TLS stream; a
# daemon whose certificate the CA did not sign is refused with SBX_E4002,
# and TLS without DOCKER_CERT_PATH with SBX_E4001.
set -eu
: "${SBX_TEST_BUILDDIR:?run this test through make check}"
command -v openssl >/dev/null 2>&1 || {
    [ "${CI:-}" = true ] && { echo "FAIL: openssl is needed (CI=true)" >&2; exit 1; }
    echo "SKIP: openssl is not installed"; exit 77; }

certs=$(mktemp -d /tmp/sbx-docker-tls-XXXXXX)
trap 'rm -rf "$certs"' EXIT
mkcert() { # name subject [extfile]
    openssl req -new -newkey rsa:2048 -nodes -keyout "$certs/$1-key.pem" -subj "$2" \
        -out "$certs/$1.csr" 2>/dev/null
    openssl x509 -req -in "$certs/$1.csr" -CA "$certs/ca.pem" -CAkey "$certs/ca-key.pem" \
        -CAcreateserial -days 2 -out "$certs/$1-cert.pem" ${3:+-extfile "$3"} 2>/dev/null
}
openssl req -x509 -new -newkey rsa:2048 -nodes -keyout "$certs/ca-key.pem" -days 2 \
    -subj /CN=sbx-test-ca -out "$certs/ca.pem" 2>/dev/null
printf 'subjectAltName = IP:127.0.0.1\nextendedKeyUsage = serverAuth\n' >"$certs/server.ext"
printf 'extendedKeyUsage = clientAuth\n' >"$certs/client.ext"
mkcert server /CN=127.0.0.1 "$certs/server.ext"
mkcert client /CN=sbx-test-client "$certs/client.ext"
mkdir "$certs/client"
cp "$certs/ca.pem" "$certs/client/ca.pem"
cp "$certs/client-cert.pem" "$certs/client/cert.pem"
cp "$certs/client-key.pem" "$certs/client/key.pem"
# Another CA, which did not sign the daemon's certificate.
mkdir "$certs/other"
openssl req -x509 -new -newkey rsa:2048 -nodes -keyout "$certs/other/ca-key.pem" -days 2 \
    -subj /CN=other-ca -out "$certs/other/ca.pem" 2>/dev/null
cp "$certs/client/cert.pem" "$certs/client/key.pem" "$certs/other/"

SBX_DOCKERD_TLS_DIR=$certs
SBX_DOCKERD_TCP=127.0.0.1:$((20000 + $$ % 20000))
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"
trap 'dockerd_stop; rm -rf "$certs"' EXIT

TCP_DSN="docker://$SBX_DOCKERD_TCP?image=busybox"
out=$(printf 'over tls' | DOCKER_TLS_VERIFY=1 DOCKER_CERT_PATH="$certs/client" \
    "$SBX" run --dsn "$TCP_DSN" --stdin -- sh -c 'cat; echo " ok"') ||
    fail "a run over TLS failed: $out"
[ "$out" = "over tls ok" ] || fail "over TLS, stdout is '$out'"

set +e
err=$(DOCKER_TLS_VERIFY=1 DOCKER_CERT_PATH="$certs/other" "$SBX" run --dsn "$TCP_DSN" -- true 2>&1)
status=$?
set -e
[ "$status" -eq 123 ] || fail "an unverifiable daemon: exit $status: $err"
echo "$err" | grep -q SBX_E4002 || fail "an unverifiable daemon is not SBX_E4002: $err"

set +e
err=$(DOCKER_TLS_VERIFY=1 "$SBX" run --dsn "$TCP_DSN" -- true 2>&1)
status=$?
set -e
[ "$status" -eq 123 ] || fail "TLS without DOCKER_CERT_PATH: exit $status: $err"
echo "$err" | grep -q 'SBX_E4001.*DOCKER_CERT_PATH' || fail "TLS without DOCKER_CERT_PATH: $err"

expect_no_leftovers
echo PASS
