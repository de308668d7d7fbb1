#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# What run's options ask for reaches the backend exactly (sizes in powers of
# 1024, durations in ms, CPUs in thousandths, the environment and nothing
# else), the sandbox is destroyed after every run, and a backend without
# streaming gets its captured output replayed. Uses the core's test plugin,
# which logs every call it receives.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

use_testcaps
# exec, env, cwd, timeout, net-none, net-allowlist, limit-memory/cpu/pids; no stream.
SBX_TESTCAPS_CAPS=ff1
SBX_TESTCAPS_TIER=2
SBX_CLI_NOT_PASSED=host-value
export SANDBOXIO_PLUGIN_PATH SBX_TESTCAPS_LOG SBX_TESTCAPS_CAPS SBX_TESTCAPS_TIER SBX_CLI_NOT_PASSED

# The default policy on a backend that guarantees no network runs.
sbx run --dsn testcaps:// -- prog 3
expect_status 0
expect_stdout "xxx"
expect_calls "open network=0 memory=2147483648 cpu=0 pids=1024 disk=0 defaulted=a00" "exec prog timeout=0 cwd=- env=" "destroy"

sbx run --dsn testcaps:// --memory 64M --cpus 1.5 --pids 10 --timeout 0.3 --env A=b -- prog 10
expect_status 0
expect_stdout "xxxxxxxxxx"
expect_calls "open network=0 memory=67108864 cpu=1500 pids=10 disk=0 defaulted=0" \
    "exec prog timeout=300 cwd=- env=A=b;" "destroy"

sbx run --dsn testcaps:// --memory 1.5G --timeout 2m --env-pass SBX_CLI_NOT_PASSED --cwd sub -- prog
expect_status 0
expect_calls "open network=0 memory=1610612736 cpu=0 pids=1024 disk=0 defaulted=800" \
    "exec prog timeout=120000 cwd=sub env=SBX_CLI_NOT_PASSED=host-value;" "destroy"

# The short options -e and -w (as in `docker run`) are --env and --cwd.
sbx run --dsn testcaps:// -e A=b -eC=d -w sub -- prog
expect_status 0
expect_calls "open network=0 memory=2147483648 cpu=0 pids=1024 disk=0 defaulted=a00" \
    "exec prog timeout=0 cwd=sub env=A=b;C=d;" "destroy"
sbx run --dsn testcaps:// -e NOEQUALS -- prog
expect_error 120 SBX_E1018
sbx run --dsn testcaps:// -w
expect_error 120 SBX_E1018

sbx run --dsn testcaps:// --allow-host example.com --allow-host example.org:443 -- prog
expect_status 0
expect_calls "open network=1 memory=2147483648 cpu=0 pids=1024 disk=0 defaulted=a00" "exec prog timeout=0 cwd=- env=" "destroy"

sbx run --dsn testcaps:// --network open --json -- prog 2
expect_status 0
json_check 'd["stdout"] == "xx" and d["backend"] == "testcaps" and d["tier"] == "namespace"'
expect_calls "open network=2 memory=2147483648 cpu=0 pids=1024 disk=0 defaulted=a00" "exec prog timeout=0 cwd=- env=" "destroy"

# Without streaming, the output is captured up to the cap and replayed, with a warning.
sbx run --dsn testcaps:// --output-cap 1k -- prog 3000
expect_status 0
[ "$(wc -c <"$OUT")" -eq 1024 ] || fail "the replayed output is not cut at 1024 bytes"
expect_stderr_has "sandboxio: SBX_E5003: stdout was cut at the output cap"
expect_calls "open network=0 memory=2147483648 cpu=0 pids=1024 disk=0 defaulted=a00" "exec prog timeout=0 cwd=- env=" "destroy"

# The default limits: only for the controls the backend has (here not
# limit-disk), never refused, shown by --json; --no-default-limits drops them.
sbx run --dsn testcaps:// --network open --json --pids 7 -- prog 1
expect_status 0
json_check 'd["limits"] == {"memory": 2147483648, "cpu_millis": None, "pids": 7, "disk": None, "defaults": ["limit-memory"]}'
expect_calls "open network=2 memory=2147483648 cpu=0 pids=7 disk=0 defaulted=200" \
    "exec prog timeout=0 cwd=- env=" "destroy"
sbx run --dsn testcaps:// --no-default-limits -- prog
expect_status 0
expect_calls "open network=0 memory=0 cpu=0 pids=0 disk=0 defaulted=0" "exec prog timeout=0 cwd=- env=" "destroy"

# A disk limit: passed exactly where the backend has limit-disk, else refused.
SBX_TESTCAPS_CAPS=40ff1
sbx run --dsn testcaps:// --disk 64M -- prog
expect_status 0
expect_calls "open network=0 memory=2147483648 cpu=0 pids=1024 disk=67108864 defaulted=a00" \
    "exec prog timeout=0 cwd=- env=" "destroy"
sbx run --dsn testcaps:// -- prog
expect_status 0
expect_calls "open network=0 memory=2147483648 cpu=0 pids=1024 disk=1073741824 defaulted=40a00" \
    "exec prog timeout=0 cwd=- env=" "destroy"
SBX_TESTCAPS_CAPS=ff1
sbx run --dsn testcaps:// --disk 64M -- prog
expect_error 122 SBX_E3016
[ ! -e "$SBX_TESTCAPS_LOG" ] || fail "the backend was called despite the disk refusal"
sbx run --dsn testcaps:// --disk lots -- prog
expect_error 120 SBX_E1015

# The backend is probed once per run: not again to describe it for --json,
# and not twice when it cannot stream (a refused streamed run, then another).
SBX_TESTCAPS_PROBE_LOG="$TMP/probes"
export SBX_TESTCAPS_PROBE_LOG
for args in "--json" ""; do
    rm -f "$SBX_TESTCAPS_PROBE_LOG"
    # shellcheck disable=SC2086
    sbx run --dsn testcaps:// $args -- prog 3
    expect_status 0
    [ "$(wc -l <"$SBX_TESTCAPS_PROBE_LOG")" -eq 1 ] ||
        fail "run $args probed the backend $(wc -l <"$SBX_TESTCAPS_PROBE_LOG") times, not once"
    rm -f "$SBX_TESTCAPS_LOG"
done
unset SBX_TESTCAPS_PROBE_LOG

# A refused policy creates nothing at all.
SBX_TESTCAPS_CAPS=1
sbx run --dsn testcaps:// -- prog
expect_error 122 SBX_E3002
[ ! -e "$SBX_TESTCAPS_LOG" ] || fail "the backend was called despite the refusal"

# With streaming, a reader that goes away stops the command; the sandbox is still destroyed.
SBX_TESTCAPS_CAPS=83
{
    set +e
    "$SBX" run --dsn testcaps:// -- prog 100000000 2>"$ERR" </dev/null
    echo $? >"$TMP/status"
} | head -c 10 >"$OUT"
status=$(cat "$TMP/status")
expect_error 125 SBX_E5005
expect_calls "open network=0 memory=0 cpu=0 pids=0 disk=0 defaulted=0" "exec prog timeout=0 cwd=- env=" "destroy"
