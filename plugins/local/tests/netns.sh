# SPDX-License-Identifier: Apache-2.0
# Sourced by local's network tests, not run: a network namespace of the
# test's own (commands run in it with $inns), joined to the host by a veth pair: the host side is
# ${net}1, the namespace's ${net}2 (/24), where the test's servers listen.
# Needs root (else skipped, failing under CI=true); cleaned up on exit,
# with the servers started by serve. Sets work (a temporary directory).
skip() {
    if [ "${CI:-}" = true ]; then echo "FAIL: $* (CI=true: this test must run)" >&2; exit 1; fi
    echo "SKIP: $*" >&2
    exit 77
}
[ "$(id -u)" -eq 0 ] || skip "needs root to make a network namespace"
command -v python3 >/dev/null || skip "python3 is not installed"
command -v ip >/dev/null || skip "ip (iproute2) is not installed"
command -v nsenter >/dev/null || skip "nsenter (util-linux) is not installed"

# A namespace held by a process of its own, not an `ip netns` name: two
# `ip netns add` at once (a parallel make check) can leave a name that is no
# namespace (setns: EINVAL). Commands run in it through $inns.
unshare --net sleep infinity &
ns_pid=$!
inns="nsenter --net=/proc/$ns_pid/ns/net"
link=sbx$$
net=${SBX_TEST_NET_PREFIX:-10.$(($$ % 200 + 20)).$(($$ / 200 % 250)).}
work=$(mktemp -d)
chmod 0755 "$work"
server_pids=
netns_cleanup() {
    for p in $server_pids; do kill "$p" 2>/dev/null || true; done
    kill "$ns_pid" 2>/dev/null || true
    ip link del "h$link" 2>/dev/null || true
    rm -rf "$work"
}
trap netns_cleanup EXIT
fail() { echo "FAIL: $*" >&2; cat "$work/err" >&2 2>/dev/null || true; exit 1; }

i=0
until [ "$(readlink /proc/$ns_pid/ns/net)" != "$(readlink /proc/self/ns/net)" ]; do
    i=$((i + 1)); [ $i -lt 100 ] || fail "unshare --net did not make a namespace"; sleep 0.05
done
ip link add "h$link" type veth peer name "p$link"
ip link set "p$link" netns "$ns_pid"
ip addr add "${net}1/24" dev "h$link"
ip link set "h$link" up
$inns ip addr add "${net}2/24" dev "p$link"
$inns ip link set "p$link" up
$inns ip link set lo up

# serve [netns] ADDR PORT DIR [python3 args...]: a web server, waited for.
serve() {
    in=
    if [ "$1" = netns ]; then in=$inns; shift; fi
    a=$1 port=$2 dir=$3
    shift 3
    $in python3 "$@" -b "$a" -d "$dir" "$port" >"$work/server-$port.log" 2>&1 &
    pid=$!
    server_pids="$server_pids $pid"
    # A loaded machine (a parallel make check) can take seconds to start python.
    i=0
    until $in python3 -c "import socket; socket.create_connection(('$a', $port), 1)" 2>/dev/null; do
        kill -0 "$pid" 2>/dev/null || fail "test server on $a:$port exited: $(cat "$work/server-$port.log")"
        i=$((i + 1)); [ $i -lt 300 ] || fail "test server on $a:$port did not start in 30 s"; sleep 0.1
    done
}

# dies_with_client CLIENT PGREP-ARGS...: the helper of the running client
# CLIENT that pgrep finds (as its child) ends when CLIENT is SIGKILLed.
dies_with_client() {
    client=$1
    shift
    i=0
    until helper=$(pgrep -P "$client" "$@"); do
        i=$((i + 1)); [ $i -lt 300 ] || fail "no helper '$*' under the client"; sleep 0.1
    done
    kill -KILL "$client"
    i=0
    while kill -0 "$helper" 2>/dev/null && [ "$(ps -o stat= -p "$helper" | cut -c1)" != Z ]; do
        i=$((i + 1)); [ $i -lt 50 ] || fail "'$*' ($helper) outlived its SIGKILLed client"; sleep 0.1
    done
}
