#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Loading and listing every plugin opens no network socket: `sandboxio
# plugins` (text and --json) and the library-only list-plugins run under a
# seccomp filter that kills the process on socket(2) or connect(2), and must
# exit 0. A control run shows the filter does kill a listing that loads a
# plugin whose init opens a socket, so a pass is not the filter's doing.
set -u

b=${SBX_TEST_BUILDDIR:?run this through make check}
libtool=$b/libtool
nse=$b/tests/loader/no-socket-exec
cli=$b/src/sandboxio
lister=$b/tests/loader/list-plugins
out=$(mktemp) || exit 99
trap 'rm -f "$out"' EXIT

fail() {
    echo "FAIL: $*"
    sed 's/^/  | /' "$out"
    exit 1
}

# libtool runs the uninstalled programs (argument wrappers included) with
# the build tree's libsandboxio, so no shell runs under the filter.
under_filter() {
    "$libtool" --mode=execute "$nse" "$@" >"$out" 2>&1
}

killed_by_sigsys() {
    [ "$1" -gt 128 ] && [ "$(kill -l "$1" 2>/dev/null)" = SYS ]
}

under_filter true
rc=$?
if [ "$rc" -eq 125 ]; then
    echo "SKIP: seccomp filters cannot be installed here:"
    cat "$out"
    exit 77
fi
[ "$rc" -eq 0 ] || fail "no-socket-exec true exited $rc"

# Every plugin of the build tree, whatever the default path lists.
path=
for d in "$b"/plugins/*/.libs; do
    [ -d "$d" ] && path=$path${path:+:}$d
done
[ -n "$path" ] || fail "no plugin built under $b/plugins"
SANDBOXIO_PLUGIN_PATH=$path
export SANDBOXIO_PLUGIN_PATH

under_filter "$lister"
rc=$?
killed_by_sigsys "$rc" && fail "list-plugins opened a socket (killed by SIGSYS)"
[ "$rc" -eq 0 ] || fail "list-plugins exited $rc"
grep -qx 'fake 0' "$out" || fail "list-plugins did not load the fake"

for args in "plugins" "plugins --json"; do
    # shellcheck disable=SC2086 # args is split on purpose
    under_filter "$cli" $args
    rc=$?
    killed_by_sigsys "$rc" && fail "sandboxio $args opened a socket (killed by SIGSYS)"
    [ "$rc" -eq 0 ] || fail "sandboxio $args exited $rc"
    grep -q fake "$out" || fail "sandboxio $args did not list the fake"
done

# Control: a plugin whose init opens a socket loads fine unfiltered ...
SANDBOXIO_PLUGIN_PATH=$b/tests/plugins/socketinit/.libs
"$libtool" --mode=execute "$lister" >"$out" 2>&1 || fail "control: list-plugins exited $?"
grep -qx 'socketinit 0' "$out" || fail "control: the socketinit plugin did not load"
# ... and the filter kills the listing that loads it.
for prog in "$lister" "$cli plugins"; do
    # shellcheck disable=SC2086
    under_filter $prog
    rc=$?
    killed_by_sigsys "$rc" || fail "control: $prog with a socket-opening plugin exited $rc, not killed by SIGSYS"
done
echo "PASS: listing plugins opened no socket; the control was killed by SIGSYS"
