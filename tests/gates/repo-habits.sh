#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The repository-habits gate passes on the tree, and turns red when an issue
# template stops asking for the doctor output or the pull-request template
# for the DCO sign-off.
set -u
src=${SBX_TEST_SRCDIR:?}
gate="$src/scripts/check-repo-habits.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$gate" "$src" || fail "the gate is red on the tree itself"
copy() { rm -rf "$tmp/t"; mkdir -p "$tmp/t"; cp -r "$src/.github" "$src/CONTRIBUTING.md" "$tmp/t/"; chmod -R u+w "$tmp/t"; }
copy; sed -i 's/sandboxio doctor --json/sandboxio version/' "$tmp/t/.github/ISSUE_TEMPLATE/bug_report.md"
out=$("$gate" "$tmp/t" 2>&1) && fail "an issue template without doctor output passed"
echo "$out" | grep -q 'bug_report.md does not ask for the doctor output' || fail "not named: $out"
copy; sed -i 's/Signed-off-by:/Signed:/' "$tmp/t/.github/pull_request_template.md"
out=$("$gate" "$tmp/t" 2>&1) && fail "a pull-request template without the sign-off passed"
echo "$out" | grep -q 'DCO' || fail "not named: $out"
echo "PASS: missing template requirements turn the gate red"
