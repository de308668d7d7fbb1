#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# On docker://, against a private dockerd: `sandboxio shell` whose stdin is
# a pipe or /dev/null runs sh without a terminal, reading stdin as a
# script, and ends at its EOF with the shell's status (exit 3 and "hi";
# 0), as does `shell ID`; `-t` without a terminal is refused at once
# (SBX_E1018, exit 120). Every call is bounded by timeout(1): its 124 would
# be the hang this test is about. Nothing is left behind.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
. "$SBX_TEST_SRCDIR/plugins/docker/tests/dockerd-start.sh"
trap 'dockerd_stop; rm -rf "$TMP"' EXIT
SANDBOXIO_DSN=$DSN
printf '#!/bin/sh\nexec timeout 60 "%s" "$@"\n' "$SBX" >"$TMP/sandboxio"
chmod +x "$TMP/sandboxio"
SBX="$TMP/sandboxio"

sbx_in 'echo hi
exit 3
' shell
expect_status 3
expect_stdout hi
sbx shell
expect_status 0
expect_stdout ""
sbx_in x run -t -- cat
expect_error 120 SBX_E1018
expect_no_leftovers

sbx create --ttl 10m
expect_status 0
id=$(cat "$OUT")
sbx_in 'echo in-box
exit 4
' shell --dsn "$DSN" "$id"
expect_status 4
expect_stdout in-box
sbx kill --dsn "$DSN" "$id"
expect_status 0
expect_no_leftovers
echo "PASS: docker: shell reads a pipe or /dev/null to its EOF and status (shell ID too); -t without a terminal refused"
