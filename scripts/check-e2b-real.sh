#!/bin/sh
# Gate: the contract suite against real E2B, where E2B_API_KEY is set (a
# repository secret in CI). scripts/test.sh runs it only then and reports
# SKIP otherwise; run by hand it exits 77 without a key.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${SBX_BUILD_DIR:-$top/build-normal}
if [ -z "${E2B_API_KEY:-}" ]; then
    echo "SKIP: E2B_API_KEY is not set: the contract suite did not run against real E2B"
    exit 77
fi
[ -x "$build/src/sandboxio" ] || { echo "check-e2b-real: no build in $build" >&2; exit 1; }
make -C "$build" -s check-e2b-real
