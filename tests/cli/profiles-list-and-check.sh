#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio profiles` lists the profiles of the search path with the file
# and line of each (a later file replacing an earlier profile), as a table
# or JSON; `profiles check FILE` accepts a good file and refuses a bad one
# with its code and file:line:column.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
unset SANDBOXIO_PROFILE

cat >"$TMP/system.yaml" <<'YAML'
python:
  dsn: "docker:///var/run/docker.sock?image=python:3.12-slim"
  network: allowlist
  allow-hosts: [pypi.org]
  memory: 512M
  env: {LANG: C.UTF-8}
  default-limits: true
shared: {timeout: 30}
YAML
cat >"$TMP/user.yaml" <<'YAML'
# mine
shared:
  timeout: 5
  ttl: 1h
YAML

SANDBOXIO_PROFILE_PATH="$TMP/system.yaml:$TMP/missing.yaml:$TMP/user.yaml" sbx profiles --json
expect_status 0
json_check 'd["files"] == ["'"$TMP"'/system.yaml", "'"$TMP"'/user.yaml"]'
json_check '[p["name"] for p in d["profiles"]] == ["python", "shared"]'
json_check 'd["profiles"][0] == {"name": "python", "file": "'"$TMP"'/system.yaml", "line": 1, "settings": {"dsn": "docker:///var/run/docker.sock?image=python:3.12-slim", "network": "allowlist", "allow-hosts": ["pypi.org"], "memory": "512M", "env": {"LANG": "C.UTF-8"}, "default-limits": True}}'
json_check 'd["profiles"][1] == {"name": "shared", "file": "'"$TMP"'/user.yaml", "line": 2, "settings": {"timeout": "5", "ttl": "1h"}}'

SANDBOXIO_PROFILE_PATH="$TMP/system.yaml:$TMP/user.yaml" sbx profiles
expect_status 0
expect_stdout_has "python"
expect_stdout_has "$TMP/system.yaml:1"
expect_stdout_has "$TMP/user.yaml:2"

# The default search path: /etc/sandboxio, then $XDG_CONFIG_HOME, else ~/.config.
mkdir -p "$TMP/xdg/sandboxio" "$TMP/home/.config/sandboxio"
cp "$TMP/user.yaml" "$TMP/xdg/sandboxio/profiles.yaml"
printf 'fromhome: {}\n' >"$TMP/home/.config/sandboxio/profiles.yaml"
(unset SANDBOXIO_PROFILE_PATH; XDG_CONFIG_HOME="$TMP/xdg" HOME="$TMP/home" "$SBX" profiles --json) >"$OUT"
json_check '"'"$TMP"'/xdg/sandboxio/profiles.yaml" in d["files"] and any(p["name"] == "shared" for p in d["profiles"])'
(unset SANDBOXIO_PROFILE_PATH XDG_CONFIG_HOME; HOME="$TMP/home" "$SBX" profiles --json) >"$OUT"
json_check 'any(p["name"] == "fromhome" and p["file"] == "'"$TMP"'/home/.config/sandboxio/profiles.yaml" for p in d["profiles"])'

sbx profiles check "$TMP/system.yaml"
expect_status 0
sbx profiles check --json "$TMP/user.yaml"
expect_status 0
json_check 'd["files"] == ["'"$TMP"'/user.yaml"] and d["profiles"][0]["name"] == "shared"'

# Each kind of mistake: its code, its place.
check_refused() { # CODE WHERE TEXT
    printf '%s' "$3" >"$TMP/bad.yaml"
    sbx profiles check "$TMP/bad.yaml"
    expect_error 120 "$1"
    expect_stderr_has "sandboxio: $1: $TMP/bad.yaml:$2: "
}
check_refused SBX_E1051 3:3 'p:
  memory: 1G
  netwrok: open
'
check_refused SBX_E1052 2:16 'p:
  allow-hosts: pypi.org
'
check_refused SBX_E1053 3:3 'p:
  pids: 1
  pids: 2
'
check_refused SBX_E1054 2:11 'p:
  memory: 512MB
'
check_refused SBX_E1054 2:12 'p:
  timeout: soon
'
check_refused SBX_E1050 3:1 'p:
  memory: "1G
'
expect_stderr_has "while scanning a quoted scalar started at 2:11"
sbx profiles check "$TMP/none.yaml"
expect_error 120 SBX_E1056
sbx profiles check
expect_error 120 SBX_E1018
sbx profiles list
expect_error 120 SBX_E1018
# A broken file on the search path makes the listing fail, not skip it.
SANDBOXIO_PROFILE_PATH="$TMP/system.yaml:$TMP/bad.yaml" sbx profiles
expect_error 120 SBX_E1050
