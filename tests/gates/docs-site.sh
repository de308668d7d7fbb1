#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The documentation site builds with `mkdocs build --strict` (mkdocs.yml),
# every relative link and #anchor of its HTML resolves, and every error code
# has its page errors/SBX_Ennnn.html; the gate turns red on a link to a
# missing page, a dead anchor and a missing error page.
set -u
src=${SBX_TEST_SRCDIR:?}
check="$src/scripts/check-docs-site.py"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# scripts/install-deps.sh installs mkdocs: CI always runs this gate.
command -v mkdocs >/dev/null || { echo "SKIP: mkdocs is not installed (scripts/install-deps.sh installs it)"; [ "${CI:-}" = true ] && exit 1; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; [ "${CI:-}" = true ] && exit 1; exit 77; }

mkdocs build --quiet --strict -f "$src/mkdocs.yml" -d "$tmp/site" >"$tmp/log" 2>&1 ||
  { cat "$tmp/log"; fail "mkdocs build --strict is red on the tree"; }
python3 "$check" "$tmp/site" "$src" || fail "the built site has a dead link or lacks an error page"
[ -f "$tmp/site/index.html" ] && [ -f "$tmp/site/errors/index.html" ] && [ -f "$tmp/site/dsn.html" ] ||
  fail "the site lacks its home, the error index or dsn.html"

# A copy of the configuration over a small docs/, to break on purpose.
mkdir -p "$tmp/p/docs/errors" "$tmp/p/scripts"
cp -R "$src/scripts/mkdocs-theme" "$tmp/p/scripts/"
sed '/^nav:/,$d' "$src/mkdocs.yml" >"$tmp/p/mkdocs.yml"
printf '# E\n\nSee [home](../index.md#home).\n' >"$tmp/p/docs/errors/SBX_E1001.md"
build() { # build: the small site, into $tmp/p/site
    rm -rf "$tmp/p/site"
    mkdocs build --quiet --strict -f "$tmp/p/mkdocs.yml" -d "$tmp/p/site" >"$tmp/log" 2>&1
}
page() { printf '# Home\n\n%s\n' "$1" >"$tmp/p/docs/index.md"; }

page '[the error](errors/SBX_E1001.md) and [a part](#home)'
build || { cat "$tmp/log"; fail "red on a good site"; }
python3 "$check" "$tmp/p/site" "$tmp/p" >/dev/null || fail "the check is red on a good site"

page '[missing](nothing.md)'
build && fail "mkdocs --strict is green on a link to a missing page"

page '[dead anchor](errors/SBX_E1001.md#no-such-heading)'
build || { cat "$tmp/log"; fail "mkdocs is red on a dead anchor: the check below is then not needed"; }
python3 "$check" "$tmp/p/site" "$tmp/p" >/dev/null && fail "the check is green on a dead anchor"

page 'text'
build && printf '# E2\n' >"$tmp/p/docs/errors/SBX_E1002.md" &&
  python3 "$check" "$tmp/p/site" "$tmp/p" >/dev/null && fail "the check is green on an error page missing from the site"
echo "PASS: mkdocs build --strict, every link, anchor and error page resolves; dead ones turn the gate red"
