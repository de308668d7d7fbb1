#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check-repo-habits.sh SRCDIR: the templates and guide the project's process
# relies on are there and ask for what they must: every issue template a
# reproduction and the `sandboxio doctor --json` output, the pull-request
# template the DCO Signed-off-by line, CONTRIBUTING.md the one-command setup
# and the daily loop.
set -u
src=${1:?usage: check-repo-habits.sh SRCDIR}
status=0
need() { # need FILE TEXT WHY
    if [ ! -f "$1" ]; then echo "FAIL: $1 is missing"; status=1
    elif ! grep -q -F -- "$2" "$1"; then echo "FAIL: $1 does not ask for $3 ('$2')"; status=1
    fi
}
templates=$(ls "$src"/.github/ISSUE_TEMPLATE/*.md 2>/dev/null || true)
[ -n "$templates" ] || { echo "FAIL: no issue template in $src/.github/ISSUE_TEMPLATE"; status=1; }
for t in $templates; do
    need "$t" "## Reproduction (required)" "a reproduction"
    need "$t" "sandboxio doctor --json" "the doctor output"
done
need "$src/.github/pull_request_template.md" "Signed-off-by:" "the DCO sign-off"
need "$src/CONTRIBUTING.md" "./scripts/install-deps.sh && autoreconf -fi" "the one-command setup"
need "$src/CONTRIBUTING.md" "## The daily loop" "the daily loop"
need "$src/CONTRIBUTING.md" "make abi-baseline" "how to record an ABI baseline"
[ $status -eq 0 ] && echo "PASS: issue templates, pull-request template and CONTRIBUTING.md"
exit $status
