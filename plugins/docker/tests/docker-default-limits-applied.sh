#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The core's default limits reach the container (pids.max is 1024, not max;
# memory 2 GiB), a limit given replaces its default, --no-default-limits
# drops them; and /work is a tmpfs of the disk limit (default 1 GiB): a
# write past it fails with ENOSPC inside, and what is written there does
# not grow the daemon's disk.
set -eu
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"

OUT="$SBX_DOCKERD_DIR/out"
ERR="$SBX_DOCKERD_DIR/err"
# cgroup v2 first, then v1.
limits='p=$(cat /sys/fs/cgroup/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids/pids.max)
m=$(cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes)
w=$(grep " /work " /proc/mounts | cut -d" " -f3,4 | tr , " ")
echo "pids=$p memory=$m work=$w"'

run_limits() {
    "$SBX" run --dsn "$DSN" "$@" -- sh -c "$limits" >"$OUT" 2>"$ERR" ||
        fail "run $* failed ($?): $(cat "$ERR")"
    cat "$OUT"
}

got=$(run_limits)
echo "defaults: $got"
case $got in
"pids=1024 memory=2147483648 work=tmpfs rw nosuid nodev "*"size=1048576k"*) ;;
*) fail "the default limits did not reach the container: $got" ;;
esac

got=$(run_limits --pids 50 --memory 256M --disk 8M)
echo "given: $got"
case $got in
"pids=50 memory=268435456 work=tmpfs rw nosuid nodev "*"size=8192k"*) ;;
*) fail "the limits given did not replace the defaults: $got" ;;
esac

got=$(run_limits --no-default-limits)
echo "no defaults: $got"
case $got in
"pids=max memory="*) ;;
*) fail "--no-default-limits still limits: $got" ;;
esac
case $got in *"work=tmpfs"*) fail "--no-default-limits: /work is still a tmpfs: $got" ;; esac

# Past the cap: ENOSPC inside, and no more than the cap was kept.
"$SBX" run --dsn "$DSN" --disk 8M -- sh -c \
    'dd if=/dev/zero of=/work/big bs=1M count=20 2>&1; echo "size=$(wc -c </work/big)"' \
    >"$OUT" 2>"$ERR" || fail "the ENOSPC run failed ($?): $(cat "$ERR")"
grep -q "No space left on device" "$OUT" || fail "writing 20 MiB into an 8 MiB /work: $(cat "$OUT")"
size=$(sed -n 's/^size=//p' "$OUT")
[ "$size" -le 8388608 ] || fail "/work kept $size bytes past its 8 MiB cap"
echo "20 MiB into an 8 MiB /work: ENOSPC, $size bytes kept"

# 64 MiB written to /work (default cap) while the daemon's disk is measured.
du_data() { du -skx "$SBX_DOCKERD_DIR/data" | cut -f1; }
before=$(du_data)
"$SBX" run --dsn "$DSN" --timeout 60 -- sh -c \
    'dd if=/dev/zero of=/work/big bs=1M count=64 2>/dev/null && echo written && sleep 30' \
    >"$OUT" 2>"$ERR" &
run_pid=$!
i=0
until grep -q written "$OUT" 2>/dev/null; do
    kill -0 "$run_pid" 2>/dev/null || fail "the 64 MiB run ended early: $(cat "$ERR")"
    i=$((i + 1)); [ $i -lt 300 ] || fail "the 64 MiB write did not finish in 30 s"
    sleep 0.1
done
during=$(du_data)
kill -INT "$run_pid" 2>/dev/null || true
wait "$run_pid" 2>/dev/null || true
growth=$(( (during - before) / 1024 ))
echo "the daemon's disk grew by ${growth} MiB while /work held 64 MiB"
[ "$growth" -lt 16 ] || fail "writing 64 MiB into /work grew the daemon's disk by ${growth} MiB"
i=0
while [ -n "$(docker ps -aq --filter label=io.sandboxio.sandbox)" ] && [ $i -lt 100 ]; do
    sleep 0.1; i=$((i + 1))
done
expect_no_leftovers
echo PASS
