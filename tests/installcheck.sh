#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# After `make install` (make installcheck, and so make distcheck): what a
# third party sees works without the source tree.
#  1. the installed CLI loads the installed plugins;
#  2. a plugin builds out of tree with only `pkg-config sandboxio-plugin`
#     (the fake backend's sources, compiled against the INSTALLED headers)
#     and loads from SANDBOXIO_PLUGIN_PATH;
#  3. the installed CLI runs the contract suite against the installed plugin;
#  4. a client program builds with `pkg-config sandboxio` and runs a command;
#  5. the error pages are installed, and an error points to one (or a site);
#  6. they are man pages too, which man finds and an error names;
#  7. the installed CLI finds its installed parts (src/cli/parts.h): the
#     mcp and cp programs and the YAML profiles reader.
# Usage: installcheck.sh BINDIR LIBDIR SRCDIR DOCDIR MANDIR
set -eu
bindir=$1 libdir=$2 srcdir=$3 docdir=$4 mandir=$5
unset SANDBOXIO_PLUGIN_PATH SANDBOXIO_DSN || true
export PKG_CONFIG_PATH="$libdir/pkgconfig"
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc=${CC:-cc}

plugindir=$(pkg-config --variable=plugindir sandboxio-plugin)
[ -f "$plugindir/sandboxio-fake.so" ] || { echo "FAIL: no fake plugin in $plugindir"; exit 1; }
ls "$plugindir"/*.la >/dev/null 2>&1 && { echo "FAIL: .la files installed in $plugindir"; exit 1; }

"$bindir/sandboxio" plugins | grep -q "^fake  *ok" ||
  { echo "FAIL: installed CLI does not load the installed fake plugin"; "$bindir/sandboxio" plugins; exit 1; }
echo "ok 1 installed CLI loads installed plugins"

mkdir "$work/oot"
# The plugin's own config.h, as an out-of-tree project would have.
printf '#define _GNU_SOURCE 1\n#define PACKAGE_VERSION "oot"\n' >"$work/oot/config.h"
# shellcheck disable=SC2046
# The fake backend uses a few of the project's internal helpers (lib/), as
# a plugin built on them would carry its own copy.
$cc -std=gnu11 -shared -fPIC -fvisibility=hidden -I"$work/oot" -I"$srcdir/lib" \
  $(pkg-config --cflags sandboxio-plugin) -o "$work/oot/sandboxio-fake.so" \
  "$srcdir"/plugins/fake/*.c "$srcdir"/lib/clock.c "$srcdir"/lib/exec_start.c \
  "$srcdir"/lib/file.c "$srcdir"/lib/fsmeta.c -lpthread
SANDBOXIO_PLUGIN_PATH="$work/oot" "$bindir/sandboxio" plugins | grep -q "^fake  *ok .*$work/oot" ||
  { echo "FAIL: out-of-tree plugin did not load"; SANDBOXIO_PLUGIN_PATH="$work/oot" "$bindir/sandboxio" plugins; exit 1; }
echo "ok 2 out-of-tree plugin builds against the installed headers and loads"

if "$bindir/sandboxio" contract --help >/dev/null 2>&1; then
  "$bindir/sandboxio" contract fake:// >"$work/contract.out" 2>&1 ||
    { echo "FAIL: contract suite on the installed fake plugin"; cat "$work/contract.out"; exit 1; }
  tail -n 1 "$work/contract.out"
  echo "ok 3 installed CLI runs the contract suite on the installed plugin"
fi

cat >"$work/client.c" <<'EOC'
#include <sandboxio/sandboxio.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    sbx_client *c; sbx_policy *p; sbx_sandbox *sb; sbx_cmd *cmd; sbx_result *r;
    const char *argv[] = {"echo", "installed", NULL};
    size_t len;
    if (sbx_client_new(&c) || sbx_policy_new(&p) || sbx_policy_set_network(p, SBX_NET_OPEN) ||
        sbx_sandbox_open(&sb, c, "fake://", p) || sbx_cmd_new(&cmd, argv) || sbx_exec(&r, sb, cmd)) {
        fprintf(stderr, "%s\n", sbx_error_last() ? sbx_error_last()->message : "?");
        return 1;
    }
    const char *out = sbx_result_stdout(r, &len);
    int ok = len == 10 && memcmp(out, "installed\n", 10) == 0 && sbx_result_exit_code(r) == 0;
    sbx_result_free(r); sbx_cmd_free(cmd); sbx_sandbox_free(sb); sbx_policy_free(p); sbx_client_free(c);
    return ok ? 0 : 1;
}
EOC
# shellcheck disable=SC2046
$cc -std=gnu11 -o "$work/client" "$work/client.c" $(pkg-config --cflags --libs sandboxio)
"$work/client" || { echo "FAIL: client built with pkg-config sandboxio"; exit 1; }
echo "ok 4 a client builds with pkg-config sandboxio and runs a command"

# 5. Every page of docs/ is installed (a page links dsn.md: it is there),
# the HTML site too when it was built; an error printed by the installed CLI
# points either to a site (configure --with-docs-url) or to a page that
# exists on the machine: the HTML one, or the Markdown one without mkdocs.
pages=$(ls "$docdir"/errors/SBX_E*.md 2>/dev/null | wc -l)
[ "$pages" -eq "$(ls "$srcdir"/docs/errors/SBX_E*.md | wc -l)" ] && [ -f "$docdir/errors/README.md" ] ||
  { echo "FAIL: $pages error pages installed in $docdir/errors"; exit 1; }
for md in "$srcdir"/docs/*.md "$srcdir"/docs/backends/*.md; do
  rel=${md#"$srcdir/docs/"}
  [ -f "$docdir/$rel" ] || { echo "FAIL: docs/$rel is not installed in $docdir"; exit 1; }
done
if [ -d "$docdir/html" ]; then
  html=$(ls "$docdir"/html/errors/SBX_E*.html 2>/dev/null | wc -l)
  [ "$html" -eq "$pages" ] && [ -f "$docdir/html/index.html" ] && [ -f "$docdir/html/dsn.html" ] ||
    { echo "FAIL: $html HTML error pages installed in $docdir/html/errors, for $pages pages"; exit 1; }
fi
set +e
"$bindir/sandboxio" run --dsn 'nope' -- true 2>"$work/err"
set -e
url=$(sed -n 's/^   or: //p' "$work/err")
case $url in
  "file://$docdir/html/errors/SBX_E1003.html"|"file://$docdir/errors/SBX_E1003.md")
    [ -f "${url#file://}" ] ||
      { echo "FAIL: the error points to '$url', no installed page"; cat "$work/err"; exit 1; } ;;
  http*://*/errors/SBX_E1003.html) ;;
  *) echo "FAIL: the error points to '$url'"; cat "$work/err"; exit 1 ;;
esac
echo "ok 5 the docs pages are installed; an error points to $url"

# 6. The error pages are man pages too: one per page, found by man, and an
# error names its man page in every build.
mans=$(ls "$mandir"/man7/SBX_E*.7 2>/dev/null | wc -l)
[ "$mans" -eq "$pages" ] && [ -f "$mandir/man7/sandboxio-errors.7" ] ||
  { echo "FAIL: $mans error man pages installed in $mandir/man7, for $pages pages"; exit 1; }
if command -v man >/dev/null 2>&1; then
  found=$(MANPATH="$mandir" man -w SBX_E1003) && [ "$found" = "$mandir/man7/SBX_E1003.7" ] ||
    { echo "FAIL: man -w SBX_E1003 found '${found:-nothing}' under $mandir"; exit 1; }
fi
grep -qx '  see: man SBX_E1003' "$work/err" ||
  { echo "FAIL: the error does not name its man page"; cat "$work/err"; exit 1; }
echo "ok 6 the error pages are installed as man pages (man SBX_E1003)"

# 7. The parts of the CLI that only some commands load are found where they
# were installed (contract, in 3., is one of them).
for c in mcp cp contract; do
  "$bindir/sandboxio" "$c" --help >"$work/out" 2>&1 && grep -q "sandboxio $c" "$work/out" ||
    { echo "FAIL: the installed sandboxio $c --help"; cat "$work/out"; exit 1; }
done
printf 'ok:\n  dsn: "fake://"\n' >"$work/profiles.yaml"
SANDBOXIO_PROFILE_PATH="$work/profiles.yaml" "$bindir/sandboxio" profiles >"$work/out" 2>&1 &&
  grep -q '^ok' "$work/out" ||
  { echo "FAIL: the installed CLI reads no profile"; cat "$work/out"; exit 1; }
echo "ok 7 the installed CLI starts its installed parts (mcp, cp, contract, the YAML reader)"
