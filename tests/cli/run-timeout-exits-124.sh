#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --timeout kills the command at its deadline; run then exits 124.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

start=$(date +%s)
sbx run --network open --timeout 0.3 -- sleep 10
end=$(date +%s)
expect_error 124 SBX_E5001
[ $((end - start)) -lt 5 ] || fail "the timeout did not stop sleep 10 in time ($((end - start)) s)"

sbx run --network open --timeout 300ms --json -- sleep 10
expect_status 124
json_check 'd["timed_out"] is True and d["exit_code"] is None'

# A command that finishes in time is unaffected, whatever the unit.
for t in 30 1.5 500ms 2m 1h; do
    sbx run --network open --timeout "$t" -- echo in-time
    expect_status 0
    expect_stdout "in-time"
done
