#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# On local:// (capability cwd-abs), -w takes an absolute directory of the
# sandbox as docker's -w does, and makes a missing one with its parents, in
# run and in exec; '..' is still refused (SBX_E3015, exit 122), and a
# directory that cannot be made (under the read-only /usr) fails the
# command's start.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
SANDBOXIO_DSN=local://
SANDBOXIO_LOCAL_RUNDIR="$TMP/rundir"
export SANDBOXIO_LOCAL_RUNDIR
id=
trap '[ -z "$id" ] || "$SBX" kill "$id" >/dev/null 2>&1; rm -rf "$TMP"' EXIT

sbx run -w /tmp -- pwd
expect_status 0
expect_stdout /tmp
sbx run -w '/tmp/made here/deeper' -- sh -c 'pwd; ls -d "/tmp/made here"'
expect_status 0
expect_stdout "$(printf '/tmp/made here/deeper\n/tmp/made here')"

sbx create --ttl 10m
expect_status 0
id=$(cat "$OUT")
sbx exec -w /tmp/x/y "$id" -- pwd
expect_status 0
expect_stdout /tmp/x/y
sbx exec -w /work/rel "$id" -- pwd
expect_status 0
expect_stdout /work/rel
sbx ls "$id:"
grep -qx 'rel/' "$OUT" || fail "exec -w /work/rel did not make rel in the work dir"

sbx run -w /tmp/../etc -- pwd
expect_error 122 SBX_E3015
sbx run -w /usr/sbx-cannot-make -- pwd
expect_error 125 SBX_E5004
echo "PASS: local:// -w absolute, made when missing"
