#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every wire element the e2b adapter uses is in the spec it is tested
# against. The adapter runs against the rig with its traffic recorded (the
# contract suite, the lifecycle members, gc, doctor --online); the surface
# built from the recording (tests/churn/spec-check.js record) must equal
# plugins/e2b/wire-surface.txt, kept in the tree so a reviewer sees what the
# adapter depends on, and the spec check must find each of its elements in
# the stored openapi.yml, envd.yaml and protos.
# SBX_UPDATE_SURFACE=1 writes the new surface into the source tree instead.
set -eu
# The runs' stdin is nothing: sandboxio forwards a piped stdin (as make's
# may be), which would add input calls to the surface on some machines.
exec </dev/null
. "$SBX_TEST_SRCDIR/plugins/e2b/tests/e2b-rig.sh"
. "$SBX_TEST_SRCDIR/tests/churn/churn-npm.sh"
. "$SBX_TEST_SRCDIR/tests/churn/wire-surface.sh"
surface_begin e2b E2B_WIRE_RECORD
rig_start
SANDBOXIO_MUST_WORK=1 "$SBX" contract "e2b://?template=base&timeout=600" >"$REC/contract.out" 2>&1 ||
    { cat "$REC/contract.out"; fail "the contract suite failed"; }
SBX_E2B_PLUGIN="$SBX_TEST_BUILDDIR/plugins/e2b/.libs/sandboxio-e2b.so" \
    "$SBX_TEST_BUILDDIR/plugins/e2b/tests/lifecycle-members" >"$REC/members.out" 2>&1 ||
    { cat "$REC/members.out"; fail "the lifecycle members failed"; }
surface_end e2b "e2b://?template=base" E2B
