#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `contract` and `demo` take --profile (else SANDBOXIO_PROFILE) as run
# does: contract runs on the profile's dsn (a DSN given wins; the policy is
# not applied, and it says so), demo on the profile's dsn with each step's
# policy starting from the profile's, so a policy the backend cannot meet
# stops the demo; a missing profile or one without a dsn is refused with
# its code before any backend is used.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

SANDBOXIO_PROFILE_PATH="$TMP/profiles.yaml"
export SANDBOXIO_PROFILE_PATH
unset SANDBOXIO_PROFILE
# The DSN of the environment names no backend: only a profile's can work.
SANDBOXIO_DSN=nope://
export SANDBOXIO_DSN
cat >"$TMP/profiles.yaml" <<'YAML'
onfake:
  dsn: fake://
  env: {GREETING: hi}
tight:
  dsn: fake://
  min-tier: container
opened:
  dsn: fake://
  network: open
nodsn:
  memory: 64M
YAML

# contract: the profile's dsn, one case to keep it short.
sbx contract --profile onfake --only SBX-EXEC-001
expect_status 0
expect_stdout_has "contract suite on fake://"
expect_stdout_has "PASS SBX-EXEC-001"
expect_stdout_has "1 passed, 0 failed"
expect_stderr_has "# profile 'onfake' ($TMP/profiles.yaml:1:1): its dsn; its policy is not applied"
SANDBOXIO_PROFILE=onfake sbx contract --only SBX-EXEC-001
expect_status 0
expect_stdout_has "contract suite on fake://"
# A DSN given wins over the profile's.
sbx contract --profile tight --only SBX-EXEC-001 nope2://
expect_status 1
expect_stderr_has "the DSN given instead of its dsn"
sbx contract --profile nodsn
expect_error 120 SBX_E1018
expect_stderr_has "profile 'nodsn' ($TMP/profiles.yaml:10:1) has no dsn: give a DSN"
sbx contract --profile missing
expect_error 120 SBX_E1055
sbx contract
expect_error 120 SBX_E1018

# demo: on the profile's dsn, every step passes on fake.
sbx demo --profile onfake
expect_status 0
expect_stdout_has "With profile 'onfake' ($TMP/profiles.yaml:1:1): each step's policy starts from it."
expect_stdout_has "sandboxio demo on fake://: isolation tier none, network open (this backend cannot cut it"
expect_stdout_has "Done: 4 steps in "
SANDBOXIO_PROFILE=onfake sbx demo
expect_status 0
expect_stdout_has "With profile 'onfake'"
# The profile's network is the demo's.
sbx demo --profile opened
expect_status 0
expect_stdout_has "sandboxio demo on fake://: isolation tier none, network as the profile sets it"
# The profile's policy reaches the steps: fake is tier none, the profile
# asks for a container, so the first step is refused.
sbx demo --profile tight
expect_error 122 SBX_E3001
expect_stdout_has "1. Run a command in a fresh sandbox"
! grep -qF "     | hello from" "$OUT" || fail "a step ran although the profile's tier cannot be met"
# --dsn wins over the profile's dsn.
sbx demo --profile onfake --dsn nope3://
expect_error 121 SBX_E2001
sbx demo --profile missing
expect_error 120 SBX_E1055
! grep -q "sandboxio demo on" "$OUT" || fail "the demo started with a missing profile"
echo PASS
