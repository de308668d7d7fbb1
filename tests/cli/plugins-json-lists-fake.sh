#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `plugins` lists every plugin found with its load result, ABI, tier and
# capabilities; one that does not load is listed with its code, and the
# command still succeeds.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

sbx plugins --json
expect_status 0
json_check 'isinstance(d, list)'
json_check '[p["scheme"] for p in d].count("fake") == 1'
json_check 'all(p["status"] == "ok" and p["load_code"] == 0 for p in d if p["scheme"] == "fake")'
json_check 'all({"exec", "stream"} <= set(p["capabilities"]) for p in d if p["scheme"] == "fake")'
json_check 'all("net-none" not in p["capabilities"] for p in d if p["scheme"] == "fake")'
json_check 'all(p["tier"] == "none" and p["abi_major"] == 1 for p in d if p["scheme"] == "fake")'
json_check 'all(p["path"].endswith("sandboxio-fake.so") for p in d if p["scheme"] == "fake")'

sbx plugins
expect_status 0
expect_stdout_has "SCHEME"
grep -q "^fake  *ok  *" "$OUT" || fail "no ok row for fake"
grep -q "exec,stream" "$OUT" || fail "capabilities not listed comma-separated"

# A file that is not a shared object: listed as not loadable, not fatal.
mkdir "$TMP/plugins"
echo "not a shared object" >"$TMP/plugins/sandboxio-broken.so"
SANDBOXIO_PLUGIN_PATH="$TMP/plugins:$SANDBOXIO_PLUGIN_PATH"
export SANDBOXIO_PLUGIN_PATH

sbx plugins --json
expect_status 0
json_check '[p["status"] for p in d if p["scheme"] == "broken"] == ["SBX_E2002"]'
json_check 'all(p["load_code"] == 2002 and p["message"] and p["capabilities"] is None for p in d if p["scheme"] == "broken")'
json_check '"ok" in [p["status"] for p in d if p["scheme"] == "fake"]'

sbx plugins
expect_status 0
grep -q "^broken  *SBX_E2002" "$OUT" || fail "no failed row for broken"
grep -q "^  SBX_E2002: " "$OUT" || fail "the failed row does not say why"
