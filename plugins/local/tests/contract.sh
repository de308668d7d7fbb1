#!/bin/sh
# The contract suite against local://: every case of a capability the
# local backend declares must pass (the suite skips a case only after the
# library refused the operation with the right code).
set -eu
b=${SBX_TEST_BUILDDIR:?}
SANDBOXIO_LOCAL_INIT=${SANDBOXIO_LOCAL_INIT:-$b/plugins/local/sandboxio-local-init}
export SANDBOXIO_LOCAL_INIT
exec "$b/src/sandboxio" contract local://
