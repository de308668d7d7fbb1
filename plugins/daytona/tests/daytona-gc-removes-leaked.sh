#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# sandboxio gc removes the daytona sandboxes whose owner process is gone
# (also one really leaked by a client killed with SIGKILL) or whose TTL
# passed, and keeps those of live owners, unexpired ones from other
# machines and sandboxes that are not sandboxio's; all through Prism,
# spec-checked (lib/tests/gc-removes-leaked.sh).
set -eu
. "$SBX_TEST_SRCDIR/plugins/daytona/tests/daytona-rig.sh"
. "$SBX_TEST_SRCDIR/plugins/daytona/tests/daytona-control.sh"

rig_start
GC_BACKEND=daytona GC_DSN="daytona://?snapshot=daytona-small"
. "$SBX_TEST_SRCDIR/lib/tests/gc-removes-leaked.sh"
