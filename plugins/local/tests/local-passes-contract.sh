#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The contract suite against local://: every case of a capability the
# local backend declares must pass (the suite skips a case only after the
# library refused the operation with the right code).
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
# A tarball's check (distcheck) runs a few cases that prove the rig works
# from the tarball: scripts/test.sh ran the whole suite on this tree already.
set --; [ -z "${SBX_TEST_CONTRACT_ONLY:-}" ] || set -- --only "$SBX_TEST_CONTRACT_ONLY"
exec "$b/src/sandboxio" contract local:// "$@"
