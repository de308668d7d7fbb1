#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The doc-links gate passes on the tree, and turns red on a dead heading
# anchor, a missing file, an external link off the allowed list and a man
# page reference to no page.
set -u
src=${SBX_TEST_SRCDIR:?}
gate="$src/scripts/check-doc-links.py"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; [ "${CI:-}" = true ] && exit 1; exit 77; }

python3 "$gate" "$src" || fail "the gate is red on the tree itself"

mkdir -p "$tmp/docs/man"
cp "$src/docs/external-links.txt" "$tmp/docs/"
printf '# Title\n\n## The `sbx_run()` call, step 2\n\ntext\n' >"$tmp/docs/b.md"
printf '.TH X 3\n.SH SEE ALSO\n.BR sbx_nothing (3)\n' >"$tmp/docs/man/bad.3"
printf '.TH Y 3\n.SH SEE ALSO\n.BR bad (3),\n.BR free (3)\n' >"$tmp/docs/man/good.3"

expect() { # expect pass|fail MARKDOWN-TEXT [FILE]
    printf '%s\n' "$2" >"$tmp/docs/a.md"
    out=$(python3 "$gate" "$tmp" "${3:-$tmp/docs/a.md}" 2>&1); rc=$?
    case $1 in
    pass) [ $rc -eq 0 ] || fail "red on good input '$2': $out" ;;
    fail) [ $rc -eq 1 ] || fail "green on bad input '$2': $out" ;;
    esac
}
expect pass '[ok](b.md#the-sbx_run-call-step-2) and [top](#x) <a id="x"></a>'
expect fail '[dead anchor](b.md#no-such-heading)'
expect fail '[dead self anchor](#nowhere)'
expect fail '[missing](c.md)'
expect fail '[outside](https://example.com/page)'
expect pass '[allowed](https://semver.org/spec/v2.0.0.html)'
expect fail 'x' "$tmp/docs/man/bad.3"
expect pass 'x' "$tmp/docs/man/good.3"
echo "PASS: dead anchors, files, external links and man references turn the gate red"
