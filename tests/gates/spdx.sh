#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The licence gate passes on the tree, and turns red, naming the file, when
# a tracked source lacks its SPDX line; a provider's copied spec is exempt.
set -u
src=${SBX_TEST_SRCDIR:?}
gate="$src/scripts/check-spdx.sh"
fail() { echo "FAIL: $*"; exit 1; }
command -v git >/dev/null 2>&1 || { echo "SKIP: git is not installed"; exit 77; }
git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
    { echo "SKIP: $src is not a git checkout (the release tarball): the checkout's run is the gate"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$gate" "$src" || fail "the gate is red on the tree itself"

git -C "$tmp" init -q
printf '/* SPDX-License-Identifier: Apache-2.0 */\nint a;\n' >"$tmp/ok.c"
mkdir -p "$tmp/plugins/x/spec" "$tmp/tools"
printf 'openapi: 3.0.0\n' >"$tmp/plugins/x/spec/api.yaml"
git -C "$tmp" add . && "$gate" "$tmp" >/dev/null || fail "a tree with every SPDX line (and a spec without) was red"

printf '#!/bin/sh\necho hi\n' >"$tmp/tools/run"
printf 'int b;\n' >"$tmp/new.c"
git -C "$tmp" add .
out=$("$gate" "$tmp" 2>&1) && fail "a tracked source without an SPDX line passed"
echo "$out" | grep -q 'new.c$' || fail "the C file was not named: $out"
echo "$out" | grep -q 'tools/run$' || fail "the script (by its #! line) was not named: $out"
echo "PASS: a tracked source without its SPDX line turns the gate red, and is named"
