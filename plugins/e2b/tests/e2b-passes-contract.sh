#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The contract suite passes every case for every capability the e2b
# backend declares, against the spec-checked doubles (Prism validating each
# control-plane request and answer, a strict Connect envd); no request
# breaks E2B's spec, and no sandbox is left (lib/tests/passes-contract.sh).
set -eu
. "$SBX_TEST_SRCDIR/plugins/e2b/tests/e2b-rig.sh"
rig_start
CONTRACT_DSN="e2b://?template=base&timeout=600"
CONTRACT_CAPS=exec,stream,stdin,files,env,cwd,timeout,net-none,persist,pause,attach,file-meta,cwd-abs
. "$SBX_TEST_SRCDIR/lib/tests/passes-contract.sh"
