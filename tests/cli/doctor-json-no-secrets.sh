#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `doctor` reports the environment, names the credential variables that
# are set (those the loaded plugins name, and no other), and never prints
# a credential's value.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

E2B_API_KEY=sekrit-value
MODAL_TOKEN_SECRET=sekrit-modal
SANDBOXIO_DSN='fake://?token=sekrit-dsn'
export E2B_API_KEY MODAL_TOKEN_SECRET SANDBOXIO_DSN
# No plugin reads MODAL_TOKEN_SECRET: set, it is still not listed.
unset DAYTONA_API_KEY

sbx doctor --json
expect_status 0
json_check 'd["sandboxio_version"] and d["libsandboxio_version"] and d["plugin_abi"] == "1.4"'
json_check 'd["default_limits"] == {"pids": 1024, "memory": 2147483648, "disk": 1073741824}'
json_check '"'"$FAKE_DIR"'" in [x["path"] for x in d["plugin_dirs"]]'
json_check 'all(x["exists"] for x in d["plugin_dirs"] if x["path"] == "'"$FAKE_DIR"'")'
json_check '"fake" in [p["scheme"] for p in d["plugins"] if p["status"] == "ok"]'
# What each backend can enforce here: the fake's probe confirms all it declares.
json_check 'd["enforceable"]["fake"]["probe_code"] == 0 and d["enforceable"]["fake"]["dsn"] == "fake://"'
json_check '"timeout" in d["enforceable"]["fake"]["capabilities"] and d["enforceable"]["fake"]["not_enforceable"] == []'
# The names are the loaded plugins' own (credential_env), each once.
json_check 'set(d["credentials_set"]) == {v for p in d["plugins"] if p["status"] == "ok" for v in p["credential_env"]}'
json_check '"MODAL_TOKEN_SECRET" not in d["credentials_set"]'
json_check '[p["credential_env"] for p in d["plugins"] if p["scheme"] == "fake"] == [[]]'
# The cloud backends, where this build has them.
json_check '"e2b" not in [p["scheme"] for p in d["plugins"] if p["status"] == "ok"] or d["credentials_set"]["E2B_API_KEY"] is True'
json_check '"daytona" not in [p["scheme"] for p in d["plugins"] if p["status"] == "ok"] or d["credentials_set"]["DAYTONA_API_KEY"] is False'
json_check '"REDACTED" in d["sandboxio_dsn"]'
json_check 'd["kernel"]["sysname"] == "Linux" and isinstance(d["kernel"]["cgroup2"], bool)'
json_check 'isinstance(d["kernel"]["seccomp"], bool)'
! grep -q sekrit "$OUT" "$ERR" || fail "a secret value appears in doctor --json output"

sbx doctor
expect_status 0
if [ -e "$SBX_TEST_BUILDDIR/plugins/e2b/.libs/sandboxio-e2b.so" ]; then
    grep -q "E2B_API_KEY  *set" "$OUT" || fail "text report does not say E2B_API_KEY is set"
fi
if [ -e "$SBX_TEST_BUILDDIR/plugins/daytona/.libs/sandboxio-daytona.so" ]; then
    grep -q "DAYTONA_API_KEY  *not set" "$OUT" || fail "text report misreports DAYTONA_API_KEY"
fi
! grep -q MODAL_TOKEN "$OUT" || fail "text report names a variable no plugin reads"
expect_stdout_has "$FAKE_DIR"
expect_stdout_has "Enforceable here"
! grep -q sekrit "$OUT" "$ERR" || fail "a secret value appears in the doctor report"

# A DSN with credentials does not parse, and is not printed either.
SANDBOXIO_DSN='fake://user:sekrit-pass@host'
sbx doctor --json
expect_status 0
json_check 'd["sandboxio_dsn"] == "<invalid DSN>"'
! grep -q sekrit "$OUT" "$ERR" || fail "a secret value appears in doctor output"
