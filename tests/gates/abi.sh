#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The ABI gate passes on the tree, and turns red on a member inserted in the
# middle of sbx_plugin, on a member appended without the minor bump, on a
# function removed from the library and on one added without the libtool
# version raised; an appended member with the bump passes.
set -u
src=${SBX_TEST_SRCDIR:?}; build=${SBX_TEST_BUILDDIR:?}
gate="$src/scripts/check-abi.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
for tool in abidw abidiff; do
    command -v $tool >/dev/null 2>&1 || {
        echo "SKIP: $tool is not installed (Debian: abigail-tools)"
        [ "${CI:-}" = true ] && exit 1; exit 77; }
done

"$gate" "$build" || fail "the gate is red on the tree itself"

headers() { rm -rf "$tmp/inc"; cp -r "$src/include" "$tmp/inc"; chmod -R u+w "$tmp/inc"; }
plugin_h="$tmp/inc/sandboxio/plugin.h"
expect() { # expect pass|fail WHAT PATTERN [VAR=VALUE...]
    what=$1 how=$2 pattern=$3; shift 3
    out=$(env "$@" "$gate" "$build" 2>&1); rc=$?
    case $what in
    pass) [ $rc -eq 0 ] || fail "$how: red: $out" ;;
    fail) [ $rc -eq 1 ] || fail "$how: not red (exit $rc): $out"
          echo "$out" | grep -q "$pattern" || fail "$how: no '$pattern' in: $out" ;;
    esac
}

headers
sed -i 's|^    const char \*version;    /\* the plugin.s own version \*/|&\n    const char *license;|' "$plugin_h"
grep -q 'const char \*license;' "$plugin_h" || fail "could not insert a member into sbx_plugin"
expect fail "a member inserted in the middle of sbx_plugin" 'incompatible' SBX_ABI_INCLUDE=$tmp/inc

headers
# Appended: just before the struct's closing line, whatever its last member is.
sed -i 's|^} sbx_plugin_io;|    int (*cancelled)(void *userdata);\n&|' "$plugin_h"
grep -q 'cancelled' "$plugin_h" || fail "could not append a member to sbx_plugin_io"
expect fail "a member appended without the minor bump" 'raise it' SBX_ABI_INCLUDE=$tmp/inc
minor=$(sed -n 's/^SBX_PLUGIN_ABI_MINOR=//p' "$src/abi/versions")
sed -i "s/^#define SBX_PLUGIN_ABI_MINOR .*/#define SBX_PLUGIN_ABI_MINOR $((minor + 1))/" "$plugin_h"
expect pass "a member appended with the minor bump" '' SBX_ABI_INCLUDE=$tmp/inc

# The library: a baseline of a stand-in with two functions and an opaque
# handle, then one function fewer, one more, and the handle's (private)
# layout changed.
mkdir -p "$tmp/abi"
headers
printf 'typedef struct sbx_handle sbx_handle;\nint sbx_handle_get(sbx_handle *h);\n' \
    >"$tmp/inc/sandboxio/standin.h"
lib() { # lib PRIVATE-MEMBERS FUNCTION...
    members=$1; shift
    { echo '#include <sandboxio/standin.h>'
      echo "struct sbx_handle { $members };"
      echo '__attribute__((visibility("default"))) int sbx_handle_get(sbx_handle *h) { return h->a; }'
      printf '%s\n' "$@" | sed 's/.*/__attribute__((visibility("default"))) int &(int x) { return x; }/'
    } >"$tmp/lib.c"
    ${CC:-cc} -g -shared -fPIC -I "$tmp/inc" -o "$tmp/lib.so" "$tmp/lib.c"
}
lib 'int a;' sbx_one sbx_two
SBX_ABI_DIR=$tmp/abi SBX_ABI_LIB=$tmp/lib.so SBX_ABI_INCLUDE=$tmp/inc "$gate" "$build" --baseline \
    >/dev/null || fail "cannot record a baseline"
lib 'long before; int a; char after[9];' sbx_one sbx_two
expect pass "the private layout of an opaque handle changed" '' SBX_ABI_DIR=$tmp/abi SBX_ABI_LIB=$tmp/lib.so SBX_ABI_INCLUDE=$tmp/inc
lib 'int a;' sbx_one
expect fail "a function removed" 'incompatible' SBX_ABI_DIR=$tmp/abi SBX_ABI_LIB=$tmp/lib.so SBX_ABI_INCLUDE=$tmp/inc
lib 'int a;' sbx_one sbx_two sbx_three
expect fail "a function added, same version" 'raise it' SBX_ABI_DIR=$tmp/abi SBX_ABI_LIB=$tmp/lib.so SBX_ABI_INCLUDE=$tmp/inc
expect pass "a function added with the libtool current raised" '' SBX_ABI_DIR=$tmp/abi SBX_ABI_LIB=$tmp/lib.so SBX_ABI_INCLUDE=$tmp/inc SBX_ABI_LT_VERSION=99:0:99
echo "PASS: inserted, unversioned and removed ABI changes turn the gate red"
