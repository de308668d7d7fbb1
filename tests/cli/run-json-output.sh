#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run --json prints one JSON object describing the result; output that is
# not UTF-8, or that escaping would make longer than base64, comes
# base64-encoded; failures come as {"error": ...}.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

sbx run --network open --json -- sh -c 'echo out; echo err >&2; exit 3'
expect_status 3
json_check 'd["exit_code"] == 3 and d["signal"] is None'
json_check 'd["stdout"] == "out\n" and d["stdout_encoding"] == "utf-8"'
json_check 'd["stderr"] == "err\n" and d["stderr_encoding"] == "utf-8"'
json_check 'd["timed_out"] is False and d["oom_killed"] is False and d["net_refused"] == 0'
json_check 'd["stdout_truncated"] is False and d["stderr_truncated"] is False'
json_check 'isinstance(d["duration_ms"], (int, float)) and d["duration_ms"] >= 0'
json_check 'd["backend"] == "fake" and d["tier"] == "none" and d["dsn"] == "fake://"'
[ "$(wc -l <"$OUT")" -eq 1 ] || fail "--json output is not one line"

sbx run --network open --json -- sh -c 'printf "\377\000a"'
expect_status 0
json_check 'd["stdout"] == "/wBh" and d["stdout_encoding"] == "base64"'

# 1 MiB of NUL bytes is valid UTF-8 but would take 6 MiB as \u0000 escapes:
# base64 keeps the JSON under 1.4 MiB, and it decodes back to the bytes.
sbx run --network open --json -- head -c 1048576 /dev/zero
expect_status 0
size=$(wc -c <"$OUT")
[ "$size" -lt 1468006 ] || fail "--json of 1 MiB of NUL bytes is $size bytes"
json_check 'd["stdout_encoding"] == "base64" and __import__("base64").b64decode(d["stdout"], validate=True) == bytes(1048576)'

sbx run --network open --json -- sh -c 'printf "caf\303\251"'
json_check 'd["stdout"] == "caf\u00e9" and d["stdout_encoding"] == "utf-8"'

sbx run --network open --json --output-cap 4 -- echo 0123456789
expect_status 0
json_check 'd["stdout"] == "0123" and d["stdout_truncated"] is True'

# SIZE suffixes are powers of 1024.
sbx run --network open --json --output-cap 1k -- sh -c 'head -c 3000 /dev/zero | tr "\0" a'
expect_status 0
json_check 'd["stdout"] == "a" * 1024 and d["stdout_truncated"] is True'

sbx run --network open --json -- sh -c 'kill -9 $$'
expect_status 137
json_check 'd["exit_code"] is None and d["signal"] == 9'

# A sandboxio failure in --json mode: the error on stderr and as JSON.
sbx run --json -- echo x
expect_error 122 SBX_E3002
json_check 'd["error"]["id"] == "SBX_E3002" and d["error"]["code"] == 3002'
json_check 'd["error"]["docs_url"].endswith(("errors/SBX_E3002.html", "errors/SBX_E3002.md")) and d["error"]["message"]'
