# SPDX-License-Identifier: Apache-2.0
# Sourced by the e2b wire and fault tests after e2b-rig.sh: the rig's
# control endpoints from the shell (lib/tests/rig-control.sh),
# envd's recorded requests as `envd` in ctl_check.
RIG_SIDE_LOG=/_control/envd-requests
RIG_SIDE_NAME=envd
. "$SBX_TEST_SRCDIR/lib/tests/rig-control.sh"
