#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The allowlist proxy by itself, as the plugin starts it (proxy-relay.py):
# it runs under its own seccomp filter; a tunnel relays 8 MiB each way and
# passes a side's end (shutdown) on to the other; a TLS ClientHello
# offering Encrypted Client Hello is cut and logged; a plain request whose
# Host header names another site is refused; an idle tunnel is closed
# after --idle-timeout; beyond --max-conns a connection gets a 503 until one
# ends; the proxy exits 0 when its exit pipe closes. Only 127.0.0.1.
set -eu
b=${SBX_TEST_BUILDDIR:?}
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; [ "${CI:-}" = true ] && exit 1; exit 77; }
exec python3 "$SBX_TEST_SRCDIR/plugins/local/tests/proxy-relay.py" "$b/plugins/local/sandboxio-local-proxy"
