#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The contract suite against real E2B (`make check-e2b-real`), with the
# key in E2B_API_KEY (and E2B_DOMAIN, E2B_API_URL, E2B_SANDBOX_URL if set,
# for a self-hosted install; E2B_TEMPLATE, default base): see
# lib/tests/real-contract.sh. SKIP (77) without a key.
REAL_WHO=E2B REAL_KEY=E2B_API_KEY REAL_TARGET=check-e2b-real
REAL_DSN="e2b://${E2B_DOMAIN:-}?template=${E2B_TEMPLATE:-base}&timeout=900"
REAL_ONLINE="e2b      ok: E2B control plane at "
. "$(dirname "$0")/../../../lib/tests/real-contract.sh"
