#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run-fuzz.sh [SECONDS]: build the libFuzzer targets (configure --enable-fuzz
# CC=clang in build-fuzz/, `make fuzz`) and run each for SECONDS (default
# 30) with ASan+UBSan, starting from its seed corpus tests/fuzz/corpus/NAME/
# (a copy: what the run finds stays in build-fuzz/) and its dictionary
# tests/fuzz/NAME.dict if there is one. Exit 1 on any crash,
# leak, sanitizer report or broken property; the input that caused it is kept
# as build-fuzz/crash-NAME-* and printed in hex. A crash found once belongs
# in the seed corpus, so that it is retried on every run from then on.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-30}
build=$top/build-fuzz
command -v clang >/dev/null 2>&1 || { echo "SKIP: clang is not installed (Debian: clang)"; exit 77; }
mkdir -p "$build"
[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi >/dev/null)
if [ ! -f "$build/Makefile" ]; then
    (cd "$build" && "$top/configure" -q --enable-fuzz CC=clang) || { echo "FAIL: configure --enable-fuzz"; exit 1; }
fi
make -C "$build" -s -j"$(nproc 2>/dev/null || echo 2)" fuzz >/dev/null || { echo "FAIL: make fuzz"; exit 1; }

# fuzz_one TARGET: one run; its report goes to build-fuzz/TARGET.report and
# its status to TARGET.status, so that runs can go side by side.
fuzz_one() {
    target=$1
    corpus=$build/corpus-$target
    rm -rf "$corpus"; mkdir -p "$corpus"
    if ! cp "$top/tests/fuzz/corpus/$target"/* "$corpus/"; then
        echo "FAIL: $target has no seed corpus in tests/fuzz/corpus/$target/" >"$build/$target.report"
        echo 1 >"$build/$target.status"
        return 0
    fi
    log=$build/$target.log
    report=$build/$target.report
    echo "=== $target: ${seconds}s from $(ls "$corpus" | wc -l) seeds" >"$report"
    rm -f "$build/crash-$target-"*
    dict=
    [ -f "$top/tests/fuzz/$target.dict" ] && dict=-dict=$top/tests/fuzz/$target.dict
    if ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$build/tests/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=8192 -use_value_profile=1 $dict -print_final_stats=1 \
        -artifact_prefix="$build/crash-$target-" "$corpus" \
        >"$log" 2>&1; then
        echo "ok: $target: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | awk '{print $2}') runs, no crash" >>"$report"
        echo 0 >"$build/$target.status"
    else
        grep -E 'ERROR|violated|SUMMARY|runtime error|deadly signal|chunked|whole' "$log" | head -n 20 >>"$report"
        for a in "$build/crash-$target-"*; do
            [ -f "$a" ] || continue
            echo "FAIL: $target: crash input $a ($(wc -c <"$a") bytes):"
            od -A d -c "$a" | head -n 8
        done >>"$report"
        echo "FAIL: $target (log: $log)" >>"$report"
        echo 1 >"$build/$target.status"
    fi
}

# Each target is one process on one core: as many run at once as there are
# cores, which keeps the gate's wall time at a fraction of the sum.
# The targets are the ones tests/fuzz/fuzz.mk builds: a new one is run
# without being named twice.
targets=$(sed -n '/^FUZZ_TARGETS *=/,/[^\\]$/p' "$top/tests/fuzz/fuzz.mk" |
    tr -d '\\' | sed 's/^FUZZ_TARGETS *=//' | tr ' \t' '\n\n' | sed -n 's|^tests/fuzz/||p')
[ -n "$targets" ] || { echo "FAIL: no FUZZ_TARGETS in tests/fuzz/fuzz.mk"; exit 1; }
width=$(nproc 2>/dev/null || echo 2)
status=0
set -- $targets
while [ $# -gt 0 ]; do
    batch=
    n=0
    while [ $# -gt 0 ] && [ $n -lt "$width" ]; do
        rm -f "$build/$1.status"
        fuzz_one "$1" &
        batch="$batch $1"; n=$((n + 1)); shift
    done
    wait
    for target in $batch; do
        cat "$build/$target.report"
        [ "$(cat "$build/$target.status" 2>/dev/null)" = 0 ] || status=1
    done
done
[ $status -eq 0 ] && echo "PASS: every fuzz target ran ${seconds}s without a crash"
exit $status
