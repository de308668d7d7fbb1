#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# sandboxio-plugin(7)'s synopsis shows every function of the plugin
# descriptor that <sandboxio/plugin.h> declares, so that a plugin written
# from the man page alone knows of each (ping was once missing).
set -eu
: "${SBX_TEST_SRCDIR:?run this test through make check}"
fail() { echo "FAIL: $*" >&2; exit 1; }

members() { # members FILE: the "(*name)(" and data "*name;" of struct sbx_plugin, one a line
    awk '/^typedef struct sbx_plugin \{/,/^\} sbx_plugin;/' "$1" |
        grep -o '(\*[a-z_]*)(\|\*[a-z_]*;' | sort -u
}
header=$(members "$SBX_TEST_SRCDIR/include/sandboxio/plugin.h")
page=$(members "$SBX_TEST_SRCDIR/docs/man/sandboxio-plugin.7")
[ "$(printf '%s\n' "$header" | wc -l)" -gt 20 ] || fail "found too few members in plugin.h: $header"
missing=$(printf '%s\n' "$header" | while read -r m; do
    printf '%s\n' "$page" | grep -qxF "$m" || printf '%s ' "$m"
done)
[ -z "$missing" ] || fail "sandboxio-plugin(7)'s synopsis lacks $missing"
echo "PASS: sandboxio-plugin(7) shows every member of struct sbx_plugin"
