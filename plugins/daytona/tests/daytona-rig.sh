# SPDX-License-Identifier: Apache-2.0
# Sourced by the daytona backend's tests, not run: the REST rig
# (lib/tests/rest-rig.sh) with Daytona's doubles (doubles/rig.js:
# the control-plane and toolbox doubles, each behind Prism, each Prism
# behind a front door). After sourcing and `rig_start`, besides what
# rest-rig.sh gives:
#   DAYTONA_API_URL, DAYTONA_API_KEY   exported, pointing at it

RIG_BACKEND=daytona
RIG_NODE_FOR="the doubles' packages"
RIG_ROOT_FOR="the toolbox double"
RIG_NPM_OMIT=
RIG_SPEC_NAME="Daytona's spec"
RIG_UNSET="DAYTONA_JWT_TOKEN DAYTONA_ORGANIZATION_ID DAYTONA_TARGET DAYTONA_SERVER_URL
    DAYTONA_OTEL_ENABLED DAYTONA_EXPERIMENTAL_OTEL_ENABLED"
rig_env() {
    DAYTONA_API_URL=$(rig_get apiUrl)
    DAYTONA_API_KEY=$(rig_get apiKey)
    export DAYTONA_API_URL DAYTONA_API_KEY
}
. "$SBX_TEST_SRCDIR/lib/tests/rest-rig.sh"
