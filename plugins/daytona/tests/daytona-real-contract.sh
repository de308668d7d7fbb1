#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The contract suite against real Daytona (`make check-daytona-real`), with
# the key in DAYTONA_API_KEY (DAYTONA_API_URL for a self-hosted install;
# DAYTONA_SNAPSHOT, default Daytona's own; DAYTONA_TARGET, default the
# organisation's): see lib/tests/real-contract.sh. SKIP (77)
# without a key.
REAL_WHO=Daytona REAL_KEY=DAYTONA_API_KEY REAL_TARGET=check-daytona-real
REAL_DSN="daytona://?snapshot=${DAYTONA_SNAPSHOT:-}&target=${DAYTONA_TARGET:-}&ttl=1800"
REAL_ONLINE="ok: Daytona API at "
. "$(dirname "$0")/../../../lib/tests/real-contract.sh"
