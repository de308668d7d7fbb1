#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `doctor` and `plugins` open no network socket (checked with strace).
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

if ! command -v strace >/dev/null 2>&1; then
    echo "SKIP: strace is not installed" >&2
    exit 77
fi
if ! strace -f -o /dev/null true 2>/dev/null; then
    echo "SKIP: ptrace is not permitted here" >&2
    exit 77
fi

# LeakSanitizer cannot run under ptrace; leaks are checked by the other tests.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS

# Through libtool, so that strace sees the program and not its wrapper script.
for cmd in doctor plugins; do
    "$SBX_TEST_BUILDDIR/libtool" --mode=execute strace -f -e trace=execve,socket,connect \
        -o "$TMP/trace" "$SBX" "$cmd" --json >"$OUT" 2>"$ERR" </dev/null ||
        fail "$cmd failed under strace"
    grep -q "execve(.*sandboxio" "$TMP/trace" || fail "strace did not trace sandboxio"
    ! grep -E "(socket|connect)\(" "$TMP/trace" || fail "$cmd opened a socket"
done
