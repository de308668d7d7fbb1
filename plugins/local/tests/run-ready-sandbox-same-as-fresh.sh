#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A command run in the ready sandbox sees exactly what it sees in a sandbox
# made for it (`run --fresh`): ids, capabilities, seccomp, no_new_privs,
# hostname, directory, environment, the mounts, empty /work and /tmp, the
# rlimits, the network interfaces, its own pid (nothing ran there before
# it); and the host sees the same cgroup limits on both; with the default
# policy and with limits and an environment given; and `run --json` says
# the same of both. What names one sandbox
# (mount and device numbers, its cgroup's name) is left out.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
. "$SBX_TEST_SRCDIR/plugins/local/tests/ready-lib.sh"

# What the command prints; its cgroups raw on CG lines for the host, which
# reads their limits while the command waits for a line on its stdin.
probe='id; hostname; pwd; echo "pid $$"; env | sort
grep -E "^(Uid|Gid|Groups|Cap|NoNewPrivs|Seccomp)" /proc/self/status
cut -d" " -f4- /proc/self/mountinfo | sed "s/ [0-9]*:[0-9]* / DEV /"
ls -la --time-style=+ /work /tmp; ulimit -a; cat /proc/self/limits
cut -d: -f1 /proc/net/dev; nproc; umask
sed "s/^/CG /" /proc/self/cgroup
echo END; read -r line'

# host_limits FILE: the limits of the cgroups the CG lines of FILE name.
host_limits() {
    sed -n 's|^CG [0-9]*:\([^:]*\):.*sandboxio/\([^/]*\)$|\1 \2|p' "$1" | while read -r ctl name; do
        for dir in "/sys/fs/cgroup/$ctl/sandboxio/$name" "/sys/fs/cgroup/sandboxio/$name"; do
            for f in memory.limit_in_bytes memory.memsw.limit_in_bytes memory.max pids.max \
                     cpu.max cpu.cfs_quota_us cpu.cfs_period_us; do
                [ -r "$dir/$f" ] && echo "LIMIT $ctl $f $(cat "$dir/$f")"
            done
        done
    done | sort -u
}

# view NAME RUN-OPTIONS...: run the probe; $TMP/NAME is what it and the host saw.
view() {
    name=$1; shift
    # Gone first: the run's redirection truncates it only once the run starts.
    rm -f "$TMP/fifo" "$TMP/$name.raw"
    mkfifo "$TMP/fifo"
    "$SBX" run -i "$@" -- sh -c "$probe" <"$TMP/fifo" >"$TMP/$name.raw" 2>"$TMP/$name.err" &
    pid=$!
    exec 3>"$TMP/fifo"
    i=0
    until grep -q '^END$' "$TMP/$name.raw" 2>/dev/null; do
        i=$((i + 1))
        [ $i -le 300 ] || { cat "$TMP/$name.err" >&2; fail "$name: the probe did not run"; }
        sleep 0.1
    done
    host_limits "$TMP/$name.raw" >"$TMP/$name.limits"
    echo go >&3
    exec 3>&-
    wait "$pid" || fail "$name: exit status $?"
    { grep -v '^CG ' "$TMP/$name.raw"; cat "$TMP/$name.limits"; } >"$TMP/$name"
    # As root on this cgroup layout the default memory limit is a cgroup's.
    grep -q '^LIMIT memory' "$TMP/$name" || [ "$(id -u)" != 0 ] || [ ! -d /sys/fs/cgroup/memory/sandboxio ] ||
        fail "$name: the host saw no memory limit: $(grep '^CG' "$TMP/$name.raw"; ls /sys/fs/cgroup/memory/sandboxio)"
}

# same OPTIONS...: the ready sandbox of these options shows what a fresh one does.
same() {
    "$SBX" run "$@" -- true 2>/dev/null   # leaves the ready one
    ready=$(wait_ready 1)
    view pooled "$@"
    grep -qF "took the ready sandbox $ready" "$TMP/pooled.err" ||
        fail "the run did not take $ready: $(cat "$TMP/pooled.err")"
    view fresh --fresh "$@"
    ! grep -q 'sandboxio: run:' "$TMP/fresh.err" || fail "--fresh looked for a ready sandbox"
    diff -u "$TMP/fresh" "$TMP/pooled" >&2 || fail "the ready sandbox differs from a fresh one ($*)"
    grep -q '^/work:$' "$TMP/pooled" && grep -q '^pid ' "$TMP/pooled" || fail "the probe saw nothing"
    wait_idle >/dev/null
    "$SBX" gc local:// >/dev/null
    expect_gone "$ready"
}

same
# Limits given (memory and CPU where the backend can enforce them here: not
# unprivileged without a delegated cgroup), a timeout and an environment.
limits="--pids 900 --timeout 5m"
"$SBX" run --fresh --memory 300M --cpus 0.5 -- true 2>/dev/null && limits="$limits --memory 300M --cpus 0.5"
# shellcheck disable=SC2086 # the options, split
same $limits -e SECRET=one -e PATH=/usr/bin:/bin
# The environment is the command's: the ready sandbox of one -e serves another.
"$SBX" run -e V=first -- true 2>/dev/null
wait_ready 1 >/dev/null
sbx run -e V=second -- sh -c 'echo "$V"'
expect_status 0
expect_stdout second
expect_stderr_has "took the ready sandbox"
# run --json says the same of both (backend, tier, DSN, limits, output).
json_of() { python3 -c 'import json, sys; d = json.load(sys.stdin); d.pop("duration_ms"); print(json.dumps(d, sort_keys=True))'; }
wait_idle >/dev/null
"$SBX" run --json -- echo hi 2>"$ERR" | json_of >"$TMP/pooled.json"
expect_stderr_has "took the ready sandbox"
"$SBX" run --fresh --json -- echo hi | json_of >"$TMP/fresh.json"
diff -u "$TMP/fresh.json" "$TMP/pooled.json" >&2 || fail "run --json differs in the ready sandbox"
grep -q '"stdout": "hi\\n"' "$TMP/pooled.json" || fail "run --json lost the output: $(cat "$TMP/pooled.json")"
echo "PASS"
