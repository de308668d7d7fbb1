#!/bin/sh
# The contract suite against local://: every case of a capability the
# local backend declares must pass (the suite skips a case only after the
# library refused the operation with the right code).
set -eu
b=${SBX_TEST_BUILDDIR:?}
SANDBOXIO_LOCAL_INIT=${SANDBOXIO_LOCAL_INIT:-$b/plugins/local/sandboxio-local-init}
export SANDBOXIO_LOCAL_INIT
if ! unshare -U true 2>/dev/null; then
    echo "this machine cannot create user namespaces: local:// cannot run here" >&2
    [ "${SANDBOXIO_MUST_WORK:-0}" = 1 ] && exit 1
    exit 77
fi
exec "$b/src/sandboxio" contract local://
