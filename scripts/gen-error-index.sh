#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# gen-error-index.sh SRCDIR: derive, from the two lists of error codes
# (include/sandboxio/error-codes.def, the library's; src/cli/error-codes.def,
# the tool's), the code table of docs/errors/README.md and the page list
# SBX_ERROR_PAGES of docs/errors/errors.mk, in place. `make frozen-update`
# runs it; tests/test_error_catalog.c fails while either is behind.
set -eu
srcdir=${1:?usage: gen-error-index.sh SRCDIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "NUMBER NAME SUMMARY" per code, ascending.
sed -n 's/^SBX_ERROR(\(SBX_E_[A-Z0-9_]*\), *\([0-9]*\), *"\(.*\)")[[:space:]]*$/\2 \1 \3/p' \
    "$srcdir/include/sandboxio/error-codes.def" "$srcdir/src/cli/error-codes.def" |
    sed 's/\\"/"/g' | sort -n >"$tmp/codes"
[ -s "$tmp/codes" ] || { echo "gen-error-index: no code found" >&2; exit 1; }

awk '{ n = $1; name = $2; $1 = ""; $2 = ""; sub(/^  /, "");
       printf "| [SBX_E%s](SBX_E%s.md) | `%s` | %s |\n", n, n, name, $0 }' \
    "$tmp/codes" >"$tmp/table"
readme="$srcdir/docs/errors/README.md"
# The table is the block after its header line and rule, up to a blank line.
awk -v table="$tmp/table" '
    skip && /^$/ { skip = 0 }
    skip { next }
    { print }
    /^\| Code \| Symbol \| Summary \|$/ { getline; print; while ((getline l < table) > 0) print l; skip = 1 }
' "$readme" >"$tmp/readme"
cmp -s "$tmp/readme" "$readme" || cp "$tmp/readme" "$readme"

mk="$srcdir/docs/errors/errors.mk"
n=$(wc -l <"$tmp/codes")
awk -v n="$n" '{ printf "\tdocs/errors/SBX_E%s.md%s\n", $1, NR < n ? " \\" : "" }' \
    "$tmp/codes" >"$tmp/pages"
awk -v pages="$tmp/pages" '
    skip && !/\\$/ { skip = 0; next }
    skip { next }
    /^SBX_ERROR_PAGES = \\$/ { print; while ((getline l < pages) > 0) print l; skip = 1; next }
    { print }
' "$mk" >"$tmp/mk"
cmp -s "$tmp/mk" "$mk" || cp "$tmp/mk" "$mk"
echo "gen-error-index: $n codes in docs/errors/README.md and docs/errors/errors.mk"
