#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The contract suite passes every case for every capability the daytona
# backend declares, against the spec-checked doubles (Prism validating each
# control-plane and toolbox request and answer); no request breaks
# Daytona's specs, and no sandbox is left (lib/tests/passes-contract.sh).
set -eu
. "$SBX_TEST_SRCDIR/plugins/daytona/tests/daytona-rig.sh"
rig_start
CONTRACT_DSN="daytona://?snapshot=daytona-small"
CONTRACT_CAPS=exec,stream,stdin,files,env,cwd,timeout,net-none,persist,file-meta,cwd-abs
. "$SBX_TEST_SRCDIR/lib/tests/passes-contract.sh"
