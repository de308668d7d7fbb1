#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `plugins` says which declared capabilities this machine cannot enforce, as
# `doctor` does: a backend declaring pause whose probe finds no freezer here
# lists pause as declared and not enforceable, in the table and in --json,
# so that `pause` failing with SBX_E3031 is no surprise.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

use_testcaps
SBX_TESTCAPS_CAPS=2001      # exec, pause
SBX_TESTCAPS_PROBE=1        # exec only: no freezer here
export SBX_TESTCAPS_CAPS SBX_TESTCAPS_PROBE

sbx plugins --json
expect_status 0
json_check '[p["capabilities"] for p in d if p["scheme"] == "testcaps"] == [["exec", "pause"]]'
json_check '[p["enforceable"] for p in d if p["scheme"] == "testcaps"] == [["exec"]]'
json_check '[p["not_enforceable"] for p in d if p["scheme"] == "testcaps"] == [["pause"]]'
json_check '[p["probe_code"] for p in d if p["scheme"] == "testcaps"] == [0]'

sbx plugins
expect_status 0
grep -A1 '^testcaps  *ok ' "$OUT" | grep -qx '  not enforceable on this machine: pause (sandboxio doctor)' ||
  fail "the table does not mark pause as not enforceable here"

# Everything declared is enforceable: no such line, an empty list.
SBX_TESTCAPS_PROBE=2001
sbx plugins
expect_status 0
grep -A1 '^testcaps  *ok ' "$OUT" | grep -q 'not enforceable' && fail "a line for nothing missing"
sbx plugins --json
json_check '[p["not_enforceable"] for p in d if p["scheme"] == "testcaps"] == [[]]'

# The local backend, where built: plugins and doctor agree on this machine.
if [ -f "$SBX_TEST_BUILDDIR/plugins/local/.libs/sandboxio-local.so" ]; then
  sbx plugins --json
  cp "$OUT" "$TMP/plugins.json"
  sbx doctor --json
  python3 - "$TMP/plugins.json" "$OUT" <<'PY' || fail "plugins and doctor disagree on what local enforces here"
import json, sys
plugins = {p["scheme"]: p for p in json.load(open(sys.argv[1]))}
doctor = json.load(open(sys.argv[2]))["enforceable"]
assert plugins["local"]["not_enforceable"] == doctor["local"]["not_enforceable"], (plugins["local"], doctor["local"])
PY
fi
echo "PASS: plugins marks declared capabilities not enforceable here"
