#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Gate: the contract suite against a real cloud provider, where its
# credential is set (a repository secret in CI):
#   scripts/check-cloud-real.sh BACKEND VARIABLE   e.g. e2b E2B_API_KEY
# runs `make check-BACKEND-real`. scripts/test.sh runs it only where the
# variable is set and reports SKIP otherwise; run by hand it exits 77
# without one.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${SBX_BUILD_DIR:-$top/build-normal}
backend=$1 var=$2
if [ -z "$(eval "printf %s \"\${$var:-}\"")" ]; then
    echo "SKIP: $var is not set: the contract suite did not run against real $backend"
    exit 77
fi
[ -x "$build/src/sandboxio" ] || { echo "check-$backend-real: no build in $build" >&2; exit 1; }
make -C "$build" -s "check-$backend-real"
