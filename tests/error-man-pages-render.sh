#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every error code (include/sandboxio/error-codes.def, the library's, and
# src/cli/error-codes.def, the tool's) has a man page made from
# its docs/errors page (SBX_Ennnn(7)), and so does the index
# (sandboxio-errors(7)); each renders with groff without a single warning
# (-ww) on the typesetter and the terminal, names its code in NAME, and
# keeps every section of its Markdown page. The converter refuses what it
# cannot render (a heading below "##").
set -u

if ! command -v groff >/dev/null 2>&1; then
    echo "SKIP: groff is not installed (Debian: apt-get install groff-base)"
    [ "${CI:-}" = true ] && exit 1
    exit 77
fi
srcdir=${SBX_TEST_SRCDIR:?SBX_TEST_SRCDIR is not set}
builddir=${SBX_TEST_BUILDDIR:?SBX_TEST_BUILDDIR is not set}
failed=0
bad() { echo "FAIL: $*"; failed=1; }

render() { # PAGE: no warnings on either device
    for device in ps utf8; do
        out=$(groff -man -ww -z -T"$device" "$1" 2>&1)
        [ -z "$out" ] || bad "$1 (-T$device): $out"
    done
}

codes=$(sed -n 's/^SBX_ERROR(SBX_E_[A-Z0-9_]*, *\([0-9][0-9][0-9][0-9]\),.*/\1/p' \
    "$srcdir/include/sandboxio/error-codes.def" "$srcdir/src/cli/error-codes.def")
n=0
for num in $codes; do
    n=$((n + 1))
    page="$builddir/docs/errors/SBX_E$num.7"
    if [ ! -f "$page" ]; then
        bad "SBX_E$num has no man page ($page)"
        continue
    fi
    render "$page"
    head -n 1 "$page" | grep -q "^\.TH SBX_E$num 7 " || bad "$page: its .TH does not name SBX_E$num(7)"
    sed -n '/^\.SH NAME/{n;p;}' "$page" | grep -q "^SBX_E$num \\\\- ." || bad "$page: NAME lacks 'SBX_E$num - summary'"
    # Every "## Section" of the Markdown page is a section of the man page.
    grep '^## ' "$srcdir/docs/errors/SBX_E$num.md" | cut -c4- | while read -r section; do
        want=$(printf '%s' "$section" | tr '[:lower:]' '[:upper:]')
        grep -qxF ".SH $want" "$page" || { echo "FAIL: $page lacks the section '$section'"; exit 1; }
    done || failed=1
done
[ "$n" -gt 100 ] || bad "only $n codes found in the error-codes.def files"
# A man page for each code, and none for a code that does not exist.
mans=$(ls "$builddir"/docs/errors/SBX_E*.7 | wc -l)
[ "$mans" -eq "$n" ] || bad "$mans error man pages for $n codes"

index="$builddir/docs/errors/sandboxio-errors.7"
if [ -f "$index" ]; then
    render "$index"
    for num in $codes; do
        grep -qxF "\\fBSBX_E$num\\fR(7)" "$index" || bad "sandboxio-errors(7) does not list SBX_E$num(7)"
    done
else
    bad "no index page $index"
fi

# What the converter cannot render faithfully fails, naming the line.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '# SBX_E9999: x\n\n### deeper\n' >"$tmp/SBX_E9999.md"
if out=$(sh "$srcdir/docs/errors/md2man.sh" 0 "$tmp/SBX_E9999.md" 2>&1 >/dev/null); then
    bad "md2man.sh accepted a ### heading"
else
    case $out in *"SBX_E9999.md:3: a heading below"*) ;; *) bad "md2man.sh said: $out" ;; esac
fi

[ "$failed" -eq 0 ] && echo "$n error man pages and the index render without warnings"
exit $failed
