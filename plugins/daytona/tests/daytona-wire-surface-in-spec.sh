#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every wire element the daytona adapter uses is in the specs it is tested
# against. The adapter runs against the rig with its traffic recorded at
# both front doors (the contract suite but its exit-code sweep, a run from
# an image with a target, a run with a JWT, stdin sent to a command that has
# ended, gc, doctor --online); the surface built from the recording
# (tests/churn/spec-check.js record) must equal plugins/daytona/wire-surface.txt,
# kept in the tree so a reviewer sees what the adapter depends on, and the
# spec check must find each of its elements
# in the stored api-openapi.yaml and toolbox-openapi.yaml (the toolbox's
# paths under the proxy's /{sandboxId}, as the adapter calls them).
# SBX_UPDATE_SURFACE=1 writes the new surface into the source tree instead.
set -eu
# The runs' stdin is nothing (but where a run pipes its own): sandboxio
# forwards a piped stdin (as make's may be), which would add input calls
# to the surface on some machines.
exec </dev/null
. "$SBX_TEST_SRCDIR/plugins/daytona/tests/daytona-rig.sh"
. "$SBX_TEST_SRCDIR/tests/churn/churn-npm.sh"
. "$SBX_TEST_SRCDIR/tests/churn/wire-surface.sh"
RIG_SIDE_LOG=/_control/toolbox-requests RIG_SIDE_NAME=toolbox
. "$SBX_TEST_SRCDIR/lib/tests/rig-control.sh"
surface_begin daytona DAYTONA_WIRE_RECORD
rig_start
DSN="daytona://?snapshot=daytona-small"
# The contract suite but SBX-EXEC-001 (exit codes 0..255): its 256 execs
# make the calls every other exec makes, and took half the suite's time
# (daytona-passes-contract runs it). Three patterns: --only takes one.
for only in 'SBX-[!E]*' 'SBX-EXEC-00[!1]' 'SBX-EXEC-0[!0]*'; do
    SANDBOXIO_MUST_WORK=1 "$SBX" contract "$DSN" --only "$only" >"$REC/contract.out" 2>&1 ||
        { cat "$REC/contract.out"; fail "the contract suite failed ($only)"; }
done
# What the suite does not send: a build from an image with a target and a
# ttl, and the other credential (a JWT with its organisation).
"$SBX" run --dsn "daytona://?image=python:3.12-slim&target=eu&ttl=120" -- true >"$REC/image.out" 2>&1 ||
    { cat "$REC/image.out"; fail "a run with image, target and ttl failed"; }
jwt=$(node -p "require('$RIG_JSON').jwtToken")
org=$(node -p "require('$RIG_JSON').organizationId")
env -u DAYTONA_API_KEY DAYTONA_JWT_TOKEN="$jwt" DAYTONA_ORGANIZATION_ID="$org" \
    "$SBX" run --dsn "$DSN" -- true >"$REC/jwt.out" 2>&1 || { cat "$REC/jwt.out"; fail "a run with a JWT failed"; }
# The daemon's 410 to input for a command that has ended, made certain:
# the command kills its wrapper at once, and the rig's front door holds its
# stdin (given before the run starts) until the daemon has the command's
# exit code ("after-exit", doubles/faults.js), so it always reaches the
# daemon after the end, never before. The adapter sends it as soon as the
# command is handed over and looks at the command's record only after 1 s
# without output (then fails SBX_E4009, which the test checks); stopping,
# it waits for the held call's answer. Elsewhere the 410 depends on a race
# (the contract's unread stdin meets it or not, as the status is seen
# before or after the wrapper's end).
ctl_fault '{"target":"toolbox","path":"/input$","action":"after-exit"}'
gone=0
printf x | "$SBX" run --dsn "$DSN" -- sh -c 'kill -9 $PPID' >"$REC/gone.out" 2>&1 || gone=$?
grep -q SBX_E4009 "$REC/gone.out" || { cat "$REC/gone.out"; fail "a run whose wrapper was killed did not fail as SBX_E4009 (exit $gone)"; }
surface_end daytona "$DSN" Daytona
