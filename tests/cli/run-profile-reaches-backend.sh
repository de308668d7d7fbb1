#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A profile (--profile, or SANDBOXIO_PROFILE) gives run its DSN and policy,
# exactly as the options would; options given override it; a profile that
# does not exist, or a broken profiles file, stops the run before any
# sandbox is made. Uses the core's test plugin, which logs every call.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

use_testcaps
SBX_TESTCAPS_CAPS=ff1
SBX_TESTCAPS_TIER=2
SBX_CLI_PASSED=from-host
SANDBOXIO_PROFILE_PATH="$TMP/system.yaml:$TMP/user.yaml"
export SBX_TESTCAPS_CAPS SBX_TESTCAPS_TIER SBX_CLI_PASSED SANDBOXIO_PROFILE_PATH
unset SANDBOXIO_PROFILE

cat >"$TMP/system.yaml" <<'YAML'
tight:
  dsn: testcaps://
  memory: 64M
  cpus: 1.5
  pids: 10
  timeout: 0.3
  env: {A: b, C: d}
  env-pass: [SBX_CLI_PASSED]
hosts:
  dsn: testcaps://
  network: allowlist
  allow-hosts: [example.com]
bare:
  dsn: testcaps://
  default-limits: false
YAML
# The user's file replaces the system's profile of the same name, whole.
cat >"$TMP/user.yaml" <<'YAML'
bare:
  dsn: testcaps://
  pids: 5
  default-limits: false
YAML

# The profile's DSN wins over SANDBOXIO_DSN (the fake), its policy reaches the backend.
sbx run --profile tight -- prog 3
expect_status 0
expect_stdout "xxx"
expect_calls "open network=0 memory=67108864 cpu=1500 pids=10 disk=0 defaulted=0" \
    "exec prog timeout=300 cwd=- env=A=b;C=d;SBX_CLI_PASSED=from-host;" "destroy"

# SANDBOXIO_PROFILE does the same; options override single values and env
# names (the last setting of a name is the one kept).
SANDBOXIO_PROFILE=tight sbx run --memory 1G --timeout 2m -e C=over -- prog
expect_status 0
expect_calls "open network=0 memory=1073741824 cpu=1500 pids=10 disk=0 defaulted=0" \
    "exec prog timeout=120000 cwd=- env=A=b;SBX_CLI_PASSED=from-host;C=over;" "destroy"

# --profile wins over SANDBOXIO_PROFILE; an empty SANDBOXIO_PROFILE is none.
SANDBOXIO_PROFILE=nope sbx run --profile bare -- prog
expect_status 0
expect_calls "open network=0 memory=0 cpu=0 pids=5 disk=0 defaulted=0" "exec prog timeout=0 cwd=- env=" "destroy"
SANDBOXIO_PROFILE= sbx run --dsn testcaps:// -- prog
expect_status 0
expect_calls "open network=0 memory=2147483648 cpu=0 pids=1024 disk=0 defaulted=a00" "exec prog timeout=0 cwd=- env=" "destroy"

# The network and allow-hosts come together: the profile's, or the options'.
sbx run --profile hosts -- prog
expect_status 0
expect_calls "open network=1 memory=2147483648 cpu=0 pids=1024 disk=0 defaulted=a00" "exec prog timeout=0 cwd=- env=" "destroy"
sbx run --profile hosts --network open -- prog
expect_status 0
expect_calls "open network=2 memory=2147483648 cpu=0 pids=1024 disk=0 defaulted=a00" "exec prog timeout=0 cwd=- env=" "destroy"
# --dsn overrides the profile's DSN.
sbx run --profile hosts --dsn fake:// --network open -- true
expect_status 0
[ ! -e "$SBX_TESTCAPS_LOG" ] || fail "--dsn did not override the profile's DSN"

# No such profile: refused, naming the files read, nothing created.
sbx run --profile nope -- prog
expect_error 120 SBX_E1055
expect_stderr_has "--profile: no profile 'nope' (profiles files read: $TMP/system.yaml, $TMP/user.yaml)"
SANDBOXIO_PROFILE=nope sbx run -- prog
expect_error 120 SBX_E1055
expect_stderr_has "SANDBOXIO_PROFILE: no profile 'nope'"
[ ! -e "$SBX_TESTCAPS_LOG" ] || fail "the backend was called for a missing profile"

# A broken file fails closed, even for a profile defined in another file.
printf 'bare:\n  dsn: testcaps://\n  netwrok: open\n' >"$TMP/user.yaml"
sbx run --profile tight -- prog
expect_error 120 SBX_E1051
expect_stderr_has "$TMP/user.yaml:3:3: unknown key 'netwrok' (did you mean 'network'?)"
[ ! -e "$SBX_TESTCAPS_LOG" ] || fail "the backend was called despite a broken profiles file"
# Without a profile asked for, no profiles file is read at all.
sbx run --dsn testcaps:// -- prog
expect_status 0
rm -f "$SBX_TESTCAPS_LOG"

# mcp takes --profile like run: a missing one stops it before it serves.
printf 'bare: {}\n' >"$TMP/user.yaml"
sbx mcp --profile nope
expect_error 120 SBX_E1055
