#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `doctor` reports the environment, names the credential variables that
# are set, and never prints a credential's value.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

E2B_API_KEY=sekrit-value
MODAL_TOKEN_SECRET=sekrit-modal
SANDBOXIO_DSN='fake://?token=sekrit-dsn'
export E2B_API_KEY MODAL_TOKEN_SECRET SANDBOXIO_DSN
unset DAYTONA_API_KEY

sbx doctor --json
expect_status 0
json_check 'd["sandboxio_version"] and d["libsandboxio_version"] and d["plugin_abi"] == "1.3"'
json_check 'd["default_limits"] == {"pids": 1024, "memory": 2147483648, "disk": 1073741824}'
json_check '"'"$FAKE_DIR"'" in [x["path"] for x in d["plugin_dirs"]]'
json_check 'all(x["exists"] for x in d["plugin_dirs"] if x["path"] == "'"$FAKE_DIR"'")'
json_check '"fake" in [p["scheme"] for p in d["plugins"] if p["status"] == "ok"]'
# What each backend can enforce here: the fake's probe confirms all it declares.
json_check 'd["enforceable"]["fake"]["probe_code"] == 0 and d["enforceable"]["fake"]["dsn"] == "fake://"'
json_check '"timeout" in d["enforceable"]["fake"]["capabilities"] and d["enforceable"]["fake"]["not_enforceable"] == []'
json_check 'd["credentials_set"]["E2B_API_KEY"] is True'
json_check 'd["credentials_set"]["MODAL_TOKEN_SECRET"] is True'
json_check 'd["credentials_set"]["DAYTONA_API_KEY"] is False'
json_check '"REDACTED" in d["sandboxio_dsn"]'
json_check 'd["kernel"]["sysname"] == "Linux" and isinstance(d["kernel"]["cgroup2"], bool)'
json_check 'isinstance(d["kernel"]["seccomp"], bool)'
! grep -q sekrit "$OUT" "$ERR" || fail "a secret value appears in doctor --json output"

sbx doctor
expect_status 0
grep -q "E2B_API_KEY  *set" "$OUT" || fail "text report does not say E2B_API_KEY is set"
grep -q "DAYTONA_API_KEY  *not set" "$OUT" || fail "text report misreports DAYTONA_API_KEY"
expect_stdout_has "$FAKE_DIR"
expect_stdout_has "Enforceable here"
! grep -q sekrit "$OUT" "$ERR" || fail "a secret value appears in the doctor report"

# A DSN with credentials does not parse, and is not printed either.
SANDBOXIO_DSN='fake://user:sekrit-pass@host'
sbx doctor --json
expect_status 0
json_check 'd["sandboxio_dsn"] == "<invalid DSN>"'
! grep -q sekrit "$OUT" "$ERR" || fail "a secret value appears in doctor output"
