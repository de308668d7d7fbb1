#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio run --dsn local:// --network open` reaches an HTTP server in a
# network namespace this test makes (through a veth pair, like any remote
# host), but neither a server on the host's loopback (as 127.0.0.1 or as
# slirp4netns's gateway 10.0.2.2) nor one on the host's own address. Its
# slirp4netns is gone after the run, and dies with a SIGKILLed client.
# Needs root (ip netns) and slirp4netns: else skipped, failing under CI=true.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
. "$SBX_TEST_SRCDIR/plugins/local/tests/netns.sh"
command -v slirp4netns >/dev/null || skip "slirp4netns is not installed"

mkdir "$work/remote" "$work/host"
echo remote-page >"$work/remote/index.html"
echo host-page >"$work/host/index.html"
port=18080
# The remote server, inside the namespace; the host's, on its loopback and
# on its own (veth) address.
serve netns "${net}2" $port "$work/remote" -m http.server
serve 127.0.0.1 $port "$work/host" -m http.server
serve "${net}1" $port "$work/host" -m http.server

# One line per address: the page, or the error's name.
cat >"$work/probe.py" <<'EOF'
import sys, urllib.request
for a in sys.argv[2:]:
    try:
        body = urllib.request.urlopen("http://%s:%s/" % (a, sys.argv[1]), timeout=5).read()
        print(a, body.decode().strip())
    except Exception as e:
        print(a, "refused:", type(getattr(e, "reason", e)).__name__)
EOF
"$b/src/sandboxio" run --dsn local:// --network open -- \
    python3 -c "$(cat "$work/probe.py")" $port "${net}2" 127.0.0.1 10.0.2.2 "${net}1" \
    >"$work/out" 2>"$work/err" </dev/null || fail "run exited $?"
cat "$work/out"
grep -qx "${net}2 remote-page" "$work/out" || fail "the namespace's server was not reached"
grep -qx "127.0.0.1 refused: .*" "$work/out" || fail "the host's loopback was reached as 127.0.0.1"
grep -qx "10.0.2.2 refused: .*" "$work/out" || fail "the host's loopback was reached as 10.0.2.2"
grep -qx "${net}1 refused: .*" "$work/out" || fail "the host's own address was reached"
! grep -q host-page "$work/out" || fail "a host server answered"

# Nothing of it is left: no slirp4netns whose sandbox is gone.
leftover() {
    for p in $(pgrep -x slirp4netns); do
        target=$(tr '\0' '\n' </proc/"$p"/cmdline 2>/dev/null | tail -n 2 | head -n 1)
        [ -n "$target" ] && [ ! -d /proc/"$target" ] && echo "$p"
    done
    return 0
}
[ -z "$(leftover)" ] || fail "slirp4netns left behind: $(leftover)"

# A SIGKILLed client takes its slirp4netns along.
"$b/src/sandboxio" run --dsn local:// --network open -- sleep 60 >/dev/null 2>&1 </dev/null &
client=$!
server_pids="$server_pids $client"
dies_with_client "$client" -x slirp4netns
echo "PASS: --network open reaches ${net}2 only; nothing left after the run or the client's death"
