# SPDX-License-Identifier: Apache-2.0
# Sourced by the e2b backend's tests, not run: the REST rig
# (lib/tests/rest-rig.sh) with E2B's doubles (doubles/rig.js: the
# envd and control-plane doubles, Prism before the control plane). After
# sourcing and `rig_start`, besides what rest-rig.sh gives:
#   E2B_API_URL, E2B_SANDBOX_URL, E2B_API_KEY   exported, pointing at it

RIG_BACKEND=e2b
RIG_NODE_FOR="the e2b SDK"
RIG_ROOT_FOR="the envd double"
# The code generators (devDependencies) are not needed: their output is committed.
RIG_NPM_OMIT=dev
RIG_SPEC_NAME="E2B's spec"
RIG_UNSET="E2B_DEBUG E2B_DOMAIN E2B_ACCESS_TOKEN"
rig_env() {
    E2B_API_URL=$(rig_get apiUrl)
    E2B_SANDBOX_URL=$(rig_get sandboxUrl)
    E2B_API_KEY=$(rig_get apiKey)
    export E2B_API_URL E2B_SANDBOX_URL E2B_API_KEY
}
. "$SBX_TEST_SRCDIR/lib/tests/rest-rig.sh"
