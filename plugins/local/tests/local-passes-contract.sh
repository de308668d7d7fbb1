#!/bin/sh
# The contract suite against local://: every case of a capability the
# local backend declares must pass (the suite skips a case only after the
# library refused the operation with the right code).
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
exec "$b/src/sandboxio" contract local://
