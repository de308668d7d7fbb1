#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio demo` on the default backend, local://: every step as shown,
# the network cut (the default), the refusal naming the namespace tier.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
unset SANDBOXIO_DSN
"$b/src/sandboxio" demo >"$out" 2>&1 </dev/null || { cat "$out" >&2; echo "FAIL: demo exited $?" >&2; exit 1; }
for want in "sandboxio demo on local://: isolation tier namespace, network none (the default)" \
    "     | hello from sandbox" "offers 'namespace' (exit 122)" "killed at its timeout" \
    "     | kept between commands" "Done: 4 steps in "; do
    grep -qF -- "$want" "$out" || { cat "$out" >&2; echo "FAIL: the demo lacks '$want'" >&2; exit 1; }
done
echo "PASS: the demo runs on local://"
