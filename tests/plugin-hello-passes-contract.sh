#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# examples/plugin-hello builds with its own Makefile (the headers of this
# tree standing in for the installed ones), installs into a plugin
# directory, is listed by `sandboxio plugins` and passes the contract suite
# with no failure. scripts/check-debian-packages.sh does the same against
# the installed packages. docs/packaging.md shows its result line.
set -eu
: "${SBX_TEST_BUILDDIR:?run this test through make check}"
SBX="$SBX_TEST_BUILDDIR/src/sandboxio"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cp -R "$SBX_TEST_SRCDIR/examples/plugin-hello" "$TMP/hello"
# What pkg-config sandboxio-plugin would give, set on make's command line.
make -s -C "$TMP/hello" CC="${SBX_TEST_CC:-cc}" CFLAGS='-O2 -Werror' \
    PLUGIN_CFLAGS="-I$SBX_TEST_SRCDIR/include" plugindir="$TMP/plugins" install \
    >"$TMP/make.out" 2>&1 || { cat "$TMP/make.out" >&2; fail "plugin-hello does not build"; }
[ -f "$TMP/plugins/sandboxio-hello.so" ] || fail "make install put no sandboxio-hello.so in the plugin directory"
nm -D --defined-only "$TMP/plugins/sandboxio-hello.so" | awk '{print $3}' >"$TMP/syms"
[ "$(cat "$TMP/syms")" = sandboxio_plugin_v1 ] || fail "exports more than its entry point: $(tr '\n' ' ' <"$TMP/syms")"

SANDBOXIO_PLUGIN_PATH="$TMP/plugins"
export SANDBOXIO_PLUGIN_PATH
"$SBX" plugins >"$TMP/plugins.out" 2>&1 || { cat "$TMP/plugins.out" >&2; fail "sandboxio plugins exited $?"; }
grep -Eq "^hello +ok +1\.0\.0 +1\.[0-9]+ +none +native " "$TMP/plugins.out" ||
    { cat "$TMP/plugins.out" >&2; fail "sandboxio plugins does not list hello as ok, tier none, native"; }

rc=0
"$SBX" contract hello:// >"$TMP/contract.out" 2>&1 || rc=$?
[ $rc -eq 0 ] || { cat "$TMP/contract.out" >&2; fail "sandboxio contract hello:// exited $rc"; }
grep -q '^FAIL' "$TMP/contract.out" && { grep '^FAIL' "$TMP/contract.out" >&2; fail "a contract case failed"; }
grep -Eq '^[1-9][0-9]* passed, 0 failed, [0-9]+ skipped$' "$TMP/contract.out" ||
    { tail -n 3 "$TMP/contract.out" >&2; fail "contract hello:// passed no case"; }
tail -n 1 "$TMP/contract.out"

# docs/packaging.md shows this very line: it stays true.
documented=$(sed -n 's/^sandboxio contract hello:\/\/ *# //p' "$SBX_TEST_SRCDIR/docs/packaging.md")
[ "$documented" = "$(tail -n 1 "$TMP/contract.out")" ] ||
    fail "docs/packaging.md says '$documented', the run '$(tail -n 1 "$TMP/contract.out")'"
