#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check-spdx.sh SRCDIR: every source file of the tree names its licence in
# an `SPDX-License-Identifier:` line among its first five lines.
#
# Sources are the files git tracks that are code, scripts, build fragments or examples: by suffix below, or
# any file starting with `#!`. Left out, each for its reason:
#  - */spec/*: the providers' published specifications, copied verbatim
#    (their own licence is in debian/copyright and NOTICE);
#  - */gen/*: code generated from those specifications;
#  - m4/libtool.m4, m4/lt*.m4: libtool's own files, copied by libtoolize;
#  - tests/fuzz/corpus/*: fuzzer inputs, data.
set -u
src=${1:?usage: check-spdx.sh SRCDIR}
cd "$src" || exit 2
# Outside a git checkout (the release tarball's own check) which files are
# sources and which the autotools generated is not known: the checkout's
# run is the gate.
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || {
    echo "SKIP: $src is not a git checkout: which files are tracked is unknown"; exit 77; }
files() { git ls-files; }
missing=$(files | grep -vE '(^|/)spec/|(^|/)gen/|^m4/(libtool|lt[a-z~]*)\.m4$|^tests/fuzz/corpus/' |
while read -r f; do
    [ -f "$f" ] || continue
    case "$f" in
        *.c|*.h|*.sh|*.js|*.mjs|*.py|*.mk|*.am|*.ac|*.m4|*.in|*.yml|*.yaml|*/Makefile|Makefile|debian/rules) ;;
        *) head -c2 "$f" | grep -q '^#!' || continue ;;
    esac
    head -n 5 "$f" | grep -q 'SPDX-License-Identifier: ' || echo "$f"
done)
if [ -n "$missing" ]; then
    echo "$missing" | sed 's/^/FAIL: no SPDX-License-Identifier line in the first five lines: /'
    exit 1
fi
echo "PASS: every source file names its licence (SPDX-License-Identifier)"
