#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check-frozen.sh SRCDIR CLI [--update]: error codes and contract case ids
# are part of the semver contract. Every code (number and name) and every
# case id listed in tests/frozen/ must still exist, unchanged; a code or id
# that exists but is not listed yet fails too, with the command that adds it:
#
#     scripts/check-frozen.sh . build-dev/src/sandboxio --update
#
# --update only APPENDS what is new; it never removes or changes a line.
# SBX_FROZEN_DIR overrides the directory of the lists (the gate's own test
# points it at a broken copy).
set -eu
srcdir=${1:?usage: check-frozen.sh SRCDIR CLI [--update]}
cli=${2:?usage: check-frozen.sh SRCDIR CLI [--update]}
update=${3:-}
dir=${SBX_FROZEN_DIR:-$srcdir/tests/frozen}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "1001 SBX_E_INVALID_ARGUMENT", one per code of the two definitions: the
# library's (include/sandboxio/error-codes.def) and the tool's
# (src/cli/error-codes.def).
sed -n 's/^SBX_ERROR([[:space:]]*\(SBX_E_[A-Z0-9_]*\)[[:space:]]*,[[:space:]]*\([0-9][0-9]*\).*/\2 \1/p' \
    "$srcdir/include/sandboxio/error-codes.def" "$srcdir/src/cli/error-codes.def" |
    sort >"$tmp/error-codes.txt"
"$cli" contract --list | awk '$1 ~ /^SBX-[A-Z]+-[0-9]+$/ {print $1}' | sort >"$tmp/contract-ids.txt"
[ -s "$tmp/error-codes.txt" ] || { echo "FAIL: no error code found in the error-codes.def files"; exit 1; }
[ -s "$tmp/contract-ids.txt" ] || { echo "FAIL: '$cli contract --list' printed no case id"; exit 1; }

status=0
for list in error-codes.txt contract-ids.txt; do
    frozen="$dir/$list"
    [ -f "$frozen" ] || { echo "FAIL: $frozen is missing"; exit 1; }
    grep -v '^#' "$frozen" | grep . | sort >"$tmp/frozen-$list"
    # Listed but gone, or changed (a renumbered code is a listed line missing).
    missing=$(comm -23 "$tmp/frozen-$list" "$tmp/$list")
    if [ -n "$missing" ]; then
        echo "FAIL: $list: these were released and must never be removed or renumbered:"
        echo "$missing" | sed 's/^/  /'
        status=1
    fi
    new=$(comm -13 "$tmp/frozen-$list" "$tmp/$list")
    if [ -n "$new" ] && [ "$update" = --update ]; then
        echo "$new" >>"$frozen"
        echo "appended to $frozen:"; echo "$new" | sed 's/^/  /'
    elif [ -n "$new" ]; then
        echo "FAIL: $list: not frozen yet (add them: scripts/check-frozen.sh SRCDIR CLI --update):"
        echo "$new" | sed 's/^/  /'
        status=1
    fi
done
[ $status -ne 0 ] || echo "PASS: $(wc -l <"$tmp/error-codes.txt") error codes and $(wc -l <"$tmp/contract-ids.txt") contract case ids, none removed or renumbered"
exit $status
