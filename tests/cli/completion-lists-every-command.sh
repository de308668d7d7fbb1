#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio completion bash|zsh` prints a script that completes every
# command of the table `sandboxio --help` lists (the one main.c dispatches
# from); the bash one parses and completes a prefix; any other shell is a
# usage error.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

sbx --help
commands=$(sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' "$OUT")
[ -n "$commands" ] || fail "the global usage lists no command"
echo "$commands" | grep -qx completion || fail "completion is not in the command table"

sbx completion bash
expect_status 0
cp "$OUT" "$TMP/bash"
bash -n "$TMP/bash" || fail "the bash script does not parse"
sbx completion zsh
expect_status 0
cp "$OUT" "$TMP/zsh"
head -n 1 "$TMP/zsh" | grep -qx '#compdef sandboxio' || fail "the zsh script lacks #compdef"
if command -v zsh >/dev/null 2>&1; then
    zsh -n "$TMP/zsh" || fail "the zsh script does not parse"
fi
for cmd in $commands; do
    grep -qw -- "$cmd" "$TMP/bash" || fail "the bash script lacks '$cmd'"
    grep -q "^        '$cmd:" "$TMP/zsh" || fail "the zsh script lacks '$cmd'"
done

# The bash function completes the first word from the table, and every command.
got=$(bash -c '. "$1"; COMP_WORDS=(sandboxio ex); COMP_CWORD=1; _sandboxio; printf "%s\n" "${COMPREPLY[@]}"' sh "$TMP/bash")
[ "$got" = exec ] || fail "'sandboxio ex<TAB>' completed to '$got', not exec"
got=$(bash -c '. "$1"; COMP_WORDS=(sandboxio ""); COMP_CWORD=1; _sandboxio; printf "%s\n" "${COMPREPLY[@]}"' sh "$TMP/bash" | grep -v '^--' | sort)
[ "$got" = "$(echo "$commands" | sort)" ] || fail "bash completes '$got', not the table's commands"

sbx completion fish
expect_error 120 SBX_E1018
sbx completion
expect_error 120 SBX_E1018
