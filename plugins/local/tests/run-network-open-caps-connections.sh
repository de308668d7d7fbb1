#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio run --dsn local:// --network open`: each of the sandbox's
# connections is a socket of slirp4netns on the host, with its buffers,
# outside the sandbox's limits; their number is capped (256, and the few
# descriptors slirp4netns needs itself). A sandbox opening 400 connections
# to a server in a network namespace this test makes gets fewer than 300,
# and once it closes them it connects again: the tool is still there.
# Needs root (netns.sh) and slirp4netns: else skipped, failing under CI=true.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
. "$SBX_TEST_SRCDIR/plugins/local/tests/netns.sh"
command -v slirp4netns >/dev/null || skip "slirp4netns is not installed"

cat >"$work/holder.py" <<'PY'
import socket, sys, threading
def hold(c):  # until the other end closes
    while c.recv(4096):
        pass
    c.close()
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 19001))
s.listen(1024)
while True:
    threading.Thread(target=hold, args=(s.accept()[0],), daemon=True).start()
PY
$inns python3 "$work/holder.py" "${net}2" >"$work/holder.log" 2>&1 &
server_pids="$server_pids $!"
i=0
until $inns python3 -c "import socket; socket.create_connection(('${net}2', 19001), 1)" 2>/dev/null; do
    i=$((i + 1)); [ $i -lt 300 ] || fail "the holder did not start"; sleep 0.1
done
cat >"$work/client.py" <<PY
import socket
socks = []
for i in range(400):
    try:
        socks.append(socket.create_connection(("${net}2", 19001), 5))
    except OSError:
        break
print("opened", len(socks))
for s in socks:
    s.close()
for attempt in range(50):
    try:
        socket.create_connection(("${net}2", 19001), 5).close()
        print("again: connected")
        break
    except OSError as e:
        err = e
        import time; time.sleep(0.1)
else:
    print("again:", err)
PY
"$b/src/sandboxio" run --dsn local:// --network open -- python3 -c "$(cat "$work/client.py")" \
    >"$work/out" 2>"$work/err" </dev/null || fail "run exited $?"
cat "$work/out"
opened=$(sed -n 's/^opened //p' "$work/out")
[ -n "$opened" ] && [ "$opened" -ge 200 ] || fail "only $opened connections opened: the cap is too low"
[ "$opened" -lt 300 ] || fail "$opened connections opened: no cap"
grep -qx "again: connected" "$work/out" || fail "no connection once the others closed"
echo "PASS: --network open caps the sandbox's connections at $opened"
