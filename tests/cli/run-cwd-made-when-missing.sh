#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# -w names a directory that need not exist: it is made, with its parents, as
# `docker run -w` makes it, for run and for exec; one leaving the work dir
# is still refused (SBX_E3015, exit 122), and an absolute one on a backend
# without cwd-abs (SBX_E3012).
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
# A private TMPDIR: the fake keeps sandboxes there.
TMPDIR="$TMP/t"; mkdir "$TMPDIR"; export TMPDIR

sbx run --network open -w new/deeper -- sh -c 'pwd; ls -d ../../new'
expect_status 0
tail -n 1 "$OUT" | grep -qx ../../new || fail "the made directory is not under the work dir"
head -n 1 "$OUT" | grep -q '/new/deeper$' || fail "run -w did not run in the made directory"

sbx create --network open --ttl 10m
expect_status 0
id=$(cat "$OUT")
sbx exec -w a/b "$id" -- pwd
expect_status 0
grep -q '/a/b$' "$OUT" || fail "exec -w did not run in the made directory"
sbx ls "$id:a"
expect_stdout "b/"

sbx run --network open -w ../out -- pwd
expect_error 122 SBX_E3015
# An absolute -w needs the cwd-abs capability, which the fake lacks.
sbx run --network open -w /tmp -- pwd
expect_error 122 SBX_E3012
sbx kill "$id"
expect_status 0
