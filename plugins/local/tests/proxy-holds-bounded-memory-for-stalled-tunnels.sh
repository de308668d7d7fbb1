#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The allowlist proxy by itself (proxy-memory.py): a sandbox that opens 100
# tunnels to a sender and never reads makes the proxy hold a bounded amount
# of memory (its sockets' fixed buffers), not what TCP autotuning would
# grow them to. Only 127.0.0.1. Needs python3 and ss (iproute2).
set -eu
b=${SBX_TEST_BUILDDIR:?}
skip() { echo "SKIP: $*"; [ "${CI:-}" = true ] && exit 1; exit 77; }
command -v python3 >/dev/null || skip "python3 is not installed"
command -v ss >/dev/null || skip "ss (iproute2) is not installed"
exec python3 "$SBX_TEST_SRCDIR/plugins/local/tests/proxy-memory.py" "$b/plugins/local/sandboxio-local-proxy"
