#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The seccomp profile the backend sends: socket families outside what "no
# network" covers fail with EAFNOSUPPORT (AF_VSOCK first: the hypervisor's
# port space, shared with the host), netlink beyond routing with
# EPROTONOSUPPORT; unix, IPv4, IPv6 and routing netlink still work; and the
# rest of the engine's default profile still applies (add_key is refused
# with EPERM). A static probe goes in through the files API.
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"

PROBE="$SBX_TEST_BUILDDIR/plugins/docker/tests/socket-probe"
[ -x "$PROBE" ] || fail "$PROBE is not built"
OUT="$SBX_DOCKERD_DIR/out"
ERR="$SBX_DOCKERD_DIR/err"

# "what: args expected" per line; expected is "RESULT ERRNO".
cases='AF_VSOCK stream:socket 40 1 0:-1 97
AF_VSOCK dgram:socket 40 2 0:-1 97
AF_VSOCK seqpacket:socket 40 5 0:-1 97
AF_VSOCK with bit 32:socket 0x100000028 1 0:-1 97
AF_VSOCK socketpair:socketpair 40 1:-1 97
AF_ALG:socket 38 5 0:-1 97
AF_PACKET:socket 17 3 0:-1 97
AF_KEY:socket 15 3 2:-1 97
AF_TIPC:socket 30 5 0:-1 97
AF_XDP:socket 44 3 0:-1 97
AF_UNSPEC:socket 0 1 0:-1 97
family 63:socket 63 1 0:-1 97
family INT_MAX:socket 0x7fffffff 1 0:-1 97
netlink audit:socket 16 3 9:-1 93
netlink uevent:socket 16 3 15:-1 93
netlink generic:socket 16 3 16:-1 93
netlink sock_diag:socket 16 3 4:-1 93
netlink xfrm:socket 16 3 6:-1 93
netlink protocol 40:socket 16 3 40:-1 93
AF_UNIX stream:socket 1 1 0:0 0
AF_UNIX socketpair:socketpair 1 1:0 0
AF_INET stream:socket 2 1 0:0 0
AF_INET dgram:socket 2 2 0:0 0
AF_INET6 stream:socket 10 1 0:0 0
netlink route:socket 16 3 0:0 0
add_key (default profile):add_key:-1 1'

printf '%s\n' "$cases" >"$SBX_DOCKERD_DIR/cases"
# $1 is the case list; each line's probe runs in turn.
script='printf "%s\n" "$1" | while IFS=: read -r what args expected; do
    set -f; got=$(/work/socket-probe $args); set +f
    echo "$what: $got"
done'
"$SBX_TEST_BUILDDIR/plugins/docker/tests/put-and-run" "$DSN" "$PROBE" socket-probe \
    sh -c "$script" sh "$cases" >"$OUT" 2>"$ERR" || fail "the probe run failed ($?): $(cat "$ERR")"

failed=0
while IFS=: read -r what args expected; do
    got=$(grep -F "$what: " "$OUT" | head -n 1 | sed "s/^[^:]*: //")
    if [ "$got" != "$expected" ]; then
        echo "FAIL: $what ($args): expected '$expected', got '${got:-nothing}'" >&2
        failed=1
    fi
done <"$SBX_DOCKERD_DIR/cases"
[ $failed -eq 0 ] || fail "the seccomp profile does not hold; the probe said: $(cat "$OUT")"
echo "$(wc -l <"$SBX_DOCKERD_DIR/cases") socket cases as expected"
expect_no_leftovers
echo PASS
