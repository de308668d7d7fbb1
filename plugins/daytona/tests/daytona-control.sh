# SPDX-License-Identifier: Apache-2.0
# Sourced by the daytona wire and fault tests after daytona-rig.sh: the
# rig's control endpoints from the shell (lib/tests/rig-control.sh),
# the toolbox's recorded requests as `toolbox` in ctl_check.
RIG_SIDE_LOG=/_control/toolbox-requests
RIG_SIDE_NAME=toolbox
. "$SBX_TEST_SRCDIR/lib/tests/rig-control.sh"
