#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/cli/cp-keeps-modes-mtimes-links.sh on local://: `cp` both ways
# keeps modes, mtimes and symlinks, widens nothing and never writes through
# a symlink planted at the destination, in the work dir's tmpfs too.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
rundir=$(mktemp -d)
trap 'rm -rf "$rundir"' EXIT
SANDBOXIO_LOCAL_RUNDIR="$rundir" CP_DSN=local:// \
    sh "$SBX_TEST_SRCDIR/tests/cli/cp-keeps-modes-mtimes-links.sh"
