#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# sandboxio gc removes the e2b sandboxes whose owner process is gone (also
# one really leaked by a client killed with SIGKILL) or whose TTL passed,
# and keeps those of live owners, unexpired ones from other machines and
# sandboxes that are not sandboxio's; all through Prism, spec-checked
# (lib/tests/gc-removes-leaked.sh).
set -eu
. "$SBX_TEST_SRCDIR/plugins/e2b/tests/e2b-rig.sh"
. "$SBX_TEST_SRCDIR/plugins/e2b/tests/e2b-control.sh"

rig_start
GC_BACKEND=e2b GC_DSN="e2b://?template=base&timeout=600"
. "$SBX_TEST_SRCDIR/lib/tests/gc-removes-leaked.sh"
