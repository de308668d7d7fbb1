#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every stored copy of a provider's spec (plugins/*/spec/ and its history/)
# has its line in that directory's SOURCES: file, repository (owner/name),
# path in the repository, commit (hex), date (YYYY-MM-DD). A copy without
# one could not be re-fetched or compared with a newer one.
set -eu
: "${SBX_TEST_SRCDIR:?run this test through make check}"
cd "$SBX_TEST_SRCDIR"
bad=0
n=0
for dir in plugins/*/spec plugins/*/spec/history; do
    [ -d "$dir" ] || continue
    if [ ! -f "$dir/SOURCES" ]; then
        echo "FAIL: $dir has no SOURCES file" >&2
        bad=1
        continue
    fi
    for f in "$dir"/*; do
        name=${f##*/}
        [ -f "$f" ] && [ "$name" != SOURCES ] || continue
        n=$((n + 1))
        line=$(awk -v f="$name" '$1 == f' "$dir/SOURCES")
        if [ -z "$line" ]; then
            echo "FAIL: $f has no line in $dir/SOURCES" >&2
            bad=1
            continue
        fi
        echo "$line" | awk '
            $2 ~ /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/ && $3 ~ /[\/.]/ &&
            $4 ~ /^[0-9a-f]+$/ && length($4) >= 7 && length($4) <= 40 &&
            $5 ~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$/ { ok = 1 }
            END { exit ok ? 0 : 1 }' || {
            echo "FAIL: $dir/SOURCES: the line of $name lacks repository, path, commit or date: $line" >&2
            bad=1
        }
    done
done
[ "$n" -gt 0 ] || { echo "FAIL: no stored spec copy found under plugins/*/spec" >&2; exit 1; }
[ "$bad" -eq 0 ] || exit 1
echo "PASS: $n stored spec copies, each with repository, path, commit and date"
