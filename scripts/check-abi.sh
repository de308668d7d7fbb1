#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check-abi.sh BUILDDIR [--baseline]: the ABIs against their baselines.
#
# Two ABIs, each recorded with libabigail's abidw in abi/ and compared with
# abidiff:
#  - libsandboxio.so's (abi/libsandboxio.abi: its functions and the public
#    types of include/sandboxio/), against the libtool version of
#    configure.ac (SBX_LT_VERSION current:revision:age);
#  - the plugin ABI's types (abi/plugin-types.abi: abi/plugin-types.c built
#    into a small shared object), against SBX_PLUGIN_ABI_MINOR of plugin.h.
# abi/versions holds both versions as they were at the baseline.
#
# Red when an ABI changed incompatibly (a function removed, a member
# removed, moved, renamed or retyped: anything but appending), or changed
# compatibly (a function or an appended member added) without its version
# raised: SBX_LT_VERSION's current for the library, SBX_PLUGIN_ABI_MINOR for
# the plugin types. After a deliberate change, record the new baseline in
# its own reviewed commit:
#
#     make abi-baseline      (runs: scripts/check-abi.sh BUILDDIR --baseline)
#
# SBX_ABI_DIR (the baselines), SBX_ABI_INCLUDE (the headers), SBX_ABI_LIB
# (the library) and SBX_ABI_LT_VERSION point the gate's own test at altered
# copies. The library must carry debug info
# (the default CFLAGS -g -O2).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: check-abi.sh BUILDDIR [--baseline]}" && pwd)
mode=${2:-check}
abi=${SBX_ABI_DIR:-$top/abi}
inc=${SBX_ABI_INCLUDE:-$top/include}
lib=${SBX_ABI_LIB:-$build/src/.libs/libsandboxio.so}
for tool in abidw abidiff; do
    command -v $tool >/dev/null 2>&1 || {
        echo "SKIP: $tool is not installed (Debian: abigail-tools)"; exit 77; }
done
[ -f "$lib" ] || { echo "FAIL: $lib is not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

DW="abidw --no-corpus-path --no-comp-dir-path --short-locs"
${CC:-cc} -g -O0 -shared -fPIC -I "$inc" -o "$tmp/plugin-types.so" "$top/abi/plugin-types.c"
$DW --out-file "$tmp/plugin-types.abi" "$tmp/plugin-types.so"
$DW --headers-dir "$inc/sandboxio" --out-file "$tmp/libsandboxio.abi" "$lib"
grep -q 'sbx_plugin_io' "$tmp/plugin-types.abi" || { echo "FAIL: no plugin types recorded"; exit 1; }
grep -q "elf-symbol name='sbx_" "$tmp/libsandboxio.abi" ||
    { echo "FAIL: abidw recorded no sbx_ function of $lib"; exit 1; }

minor=$(sed -n 's/^#define SBX_PLUGIN_ABI_MINOR \([0-9][0-9]*\).*/\1/p' "$inc/sandboxio/plugin.h")
lt=${SBX_ABI_LT_VERSION:-}
[ -n "$lt" ] || lt=$(sed -n 's/^AC_SUBST(\[SBX_LT_VERSION\], \[\([0-9:]*\)\]).*/\1/p' "$top/configure.ac")
[ -n "$minor" ] && [ -n "$lt" ] || { echo "FAIL: cannot read SBX_PLUGIN_ABI_MINOR or SBX_LT_VERSION"; exit 1; }

if [ "$mode" = --baseline ]; then
    mkdir -p "$abi"
    cp "$tmp/plugin-types.abi" "$tmp/libsandboxio.abi" "$abi/"
    printf 'SBX_PLUGIN_ABI_MINOR=%s\nSBX_LT_VERSION=%s\n' "$minor" "$lt" >"$abi/versions"
    echo "baseline recorded in $abi: plugin ABI minor $minor, libtool version $lt"
    exit 0
fi

base_minor=$(sed -n 's/^SBX_PLUGIN_ABI_MINOR=//p' "$abi/versions")
base_lt=$(sed -n 's/^SBX_LT_VERSION=//p' "$abi/versions")
status=0

# compare NAME BASELINE CURRENT VERSION-NAME BASE-VERSION VERSION [abidiff options]
compare() {
    name=$1 old=$2 new=$3 vname=$4 vold=$5 vnew=$6; shift 6
    set +e; abidiff "$@" "$old" "$new" >"$tmp/$name.diff" 2>&1; rc=$?; set -e
    if [ $((rc & 3)) -ne 0 ]; then
        cat "$tmp/$name.diff"; echo "FAIL: $name: abidiff could not compare (exit $rc)"; status=1
    elif [ $((rc & 8)) -ne 0 ] ||
         grep -E -q "offset changed|deletion|removed|type of '|name of '|replaced by" "$tmp/$name.diff"; then
        cat "$tmp/$name.diff"
        echo "FAIL: $name: an incompatible ABI change (only appending is allowed): undo it"; status=1
    elif [ $((rc & 4)) -ne 0 ] && [ "$vnew" -le "$vold" ]; then
        cat "$tmp/$name.diff"
        echo "FAIL: $name: the ABI grew but $vname is still $vold: raise it, then run 'make abi-baseline'"
        status=1
    elif [ $((rc & 4)) -ne 0 ]; then
        echo "ok: $name: compatible change with $vname raised ($vold -> $vnew); 'make abi-baseline' records it"
    else
        echo "ok: $name: ABI unchanged"
    fi
}
compare plugin-types "$abi/plugin-types.abi" "$tmp/plugin-types.abi" \
    SBX_PLUGIN_ABI_MINOR "$base_minor" "$minor"
# Only the types the public headers define count: the layout of an opaque
# handle (struct sbx_client in src/core/internal.h) is the library's own.
compare libsandboxio "$abi/libsandboxio.abi" "$tmp/libsandboxio.abi" \
    "SBX_LT_VERSION's current" "${base_lt%%:*}" "${lt%%:*}" \
    --headers-dir1 "$inc/sandboxio" --headers-dir2 "$inc/sandboxio"
[ $status -eq 0 ] && echo "PASS: the library and plugin ABIs are compatible with abi/"
exit $status
