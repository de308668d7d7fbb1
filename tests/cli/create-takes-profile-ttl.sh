#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `create --profile P` lives for P's ttl (5m here, where the default is an
# hour), as `ps --json` shows; --ttl given overrides the profile's, as every
# option does; $SANDBOXIO_PROFILE is the same as --profile; a profile
# without ttl leaves the default.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
# A private TMPDIR: the fake keeps sandboxes there, other tests list theirs.
TMPDIR="$TMP/t"; mkdir "$TMPDIR"; export TMPDIR
SANDBOXIO_PROFILE_PATH="$TMP/profiles.yaml"
export SANDBOXIO_PROFILE_PATH
unset SANDBOXIO_PROFILE
cat >"$TMP/profiles.yaml" <<'YAML'
short:
  dsn: fake://
  network: open
  ttl: 5m
plain:
  dsn: fake://
  network: open
YAML

# expect_life NAME MINUTES: ps --json shows sandbox NAME ending MINUTES after it was made.
expect_life() {
    sbx ps --json
    expect_status 0
    json_check "[round((s['expires_ms'] - s['created_ms']) / 60000) for s in d if s['name'] == '$1'] == [$2]"
}

sbx create --profile short --name from-profile
expect_status 0
expect_life from-profile 5
sbx create --profile short --ttl 10m --name option-wins
expect_status 0
expect_life option-wins 10
SANDBOXIO_PROFILE=short sbx create --name from-env
expect_status 0
expect_life from-env 5
sbx create --profile plain --name default-ttl
expect_status 0
expect_life default-ttl 60
for name in from-profile option-wins from-env default-ttl; do
    sbx kill "$name"
    expect_status 0
done
echo "PASS: create takes the profile's ttl; --ttl overrides it; no ttl: the default"
