#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check-static-analysis.sh [FILE.c...]: clang's static analyzer (scan-build)
# and cppcheck find nothing.
#
# Without arguments: the whole tree. cppcheck reads every C file of src/,
# plugins/, contract/ and tests/; scan-build watches a fresh configure and
# `make check TESTS=` (the library, CLI, plugins, init and every test
# program) in a scratch build directory. With FILE arguments, only those
# files, each analyzed on its own (the gate's test uses this; files of the
# tree need SBX_ANALYZE_CPPFLAGS='-DHAVE_CONFIG_H -I BUILDDIR ...').
#
# Zero findings, or exit 1. A finding is fixed in the code; where a tool is
# wrong, the suppression sits at the line, in the tool's own syntax
# ("cppcheck-suppress ID ; why") with the reason, or, for what no inline
# syntax covers, below with its reason:
#  - cppcheck varFuncNullUB: the tree ends variadic argument lists with NULL
#    (execl style). It is ((void *)0) with glibc, GCC and clang, so the
#    callee's va_arg(ap, const char *) reads a null pointer, as intended.
#  - cppcheck preprocessorErrorDirective in tests/plugins/broken.c:
#    that file is built only with -DPLUGIN_NAME=..., and says so with #error.
#  - scan-build security.insecureAPI.vfork and unix.Vfork: local's init
#    starts a command with vfork() on purpose (plugins/local/init/supervise.c
#    says why): the child makes only system calls on its own variables and
#    then execve()s or _exit()s; the parent reads none of them.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
for tool in cppcheck scan-build; do
    command -v $tool >/dev/null 2>&1 || {
        echo "SKIP: $tool is not installed (Debian: cppcheck, clang-tools)"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# --- cppcheck -------------------------------------------------------------
if [ $# -gt 0 ]; then
    targets="$*"
else
    # The deliberately broken fixture of the gate's own test is not the tree's.
    targets="$top/src $top/plugins $top/contract $top/tests -i $top/tests/gates/fixtures"
fi
# shellcheck disable=SC2086
cppcheck -q --std=c11 --enable=warning,portability --inline-suppr --error-exitcode=0 \
    --suppress=missingIncludeSystem --suppress=varFuncNullUB \
    --suppress="preprocessorErrorDirective:$top/tests/plugins/broken.c" \
    -D__GNUC__ -D__linux__ -I "$top/include" \
    --template='{file}:{line}: cppcheck {severity} [{id}]: {message}' \
    $targets 2>"$tmp/cppcheck" || { echo "FAIL: cppcheck did not run"; cat "$tmp/cppcheck"; exit 1; }
n=$(grep -c 'cppcheck ' "$tmp/cppcheck" || true)
if [ "$n" -ne 0 ]; then
    sed "s|$top/||" "$tmp/cppcheck"; echo "FAIL: cppcheck: $n findings"; status=1
else
    echo "ok: cppcheck: no finding"
fi

# --- scan-build -------------------------------------------------------------
SCAN="scan-build -o $tmp/reports --status-bugs -disable-checker security.insecureAPI.vfork -disable-checker unix.Vfork"
scan=0
if [ $# -gt 0 ]; then
    for f in "$@"; do
        # shellcheck disable=SC2086
        $SCAN clang -std=gnu11 -fsyntax-only -I "$top/include" ${SBX_ANALYZE_CPPFLAGS:-} "$f" \
            >>"$tmp/scan" 2>&1 || scan=1
    done
else
    build=$tmp/build
    mkdir -p "$build"
    [ -x "$top/configure" ] || (cd "$top" && autoreconf -fi >/dev/null)
    (cd "$build" && $SCAN "$top/configure" -q >"$tmp/configure.log" 2>&1) ||
        { cat "$tmp/configure.log"; echo "FAIL: configure under scan-build"; exit 1; }
    # shellcheck disable=SC2086
    (cd "$build" && $SCAN make -s -j"$(nproc 2>/dev/null || echo 2)" check TESTS= \
        >"$tmp/scan" 2>&1) || scan=1
fi
# Each report is one finding: print where and what.
for r in "$tmp"/reports/*/report-*.html; do
    [ -f "$r" ] || continue
    field() { sed -n "s/^<!-- $1 \(.*\) -->\$/\1/p" "$r" | head -n 1; }
    file=$(field BUGFILE); file=${file#"$top"/}
    echo "$file:$(field BUGLINE): scan-build [$(field BUGTYPE)]: $(field BUGDESC)" | sed 's|^.*/\.\./||'
done
if grep -E -q 'scan-build: [0-9]+ bugs? found' "$tmp/scan" 2>/dev/null; then
    grep -E 'scan-build: [0-9]+ bugs? found' "$tmp/scan" | sed 's/^/FAIL: /'; status=1
elif [ $scan -ne 0 ]; then
    tail -n 40 "$tmp/scan"; echo "FAIL: scan-build did not finish"; status=1
else
    echo "ok: scan-build: no bugs found"
fi
[ $status -eq 0 ] && echo "PASS: static analysis: no finding"
exit $status
