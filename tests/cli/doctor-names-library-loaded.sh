#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `doctor` names the libsandboxio file the command runs with (here the build
# tree's), in its text and in --json, beside the installs of the library it
# finds on the machine (tests/test_doctor_install.c finds two).
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

want=$(realpath "$SBX_TEST_BUILDDIR"/src/.libs/libsandboxio.so.0)

sbx doctor --json
expect_status 0
json_check "d['libsandboxio_file'] == '$want'"
json_check 'isinstance(d["libsandboxio_installs"], list)'
json_check 'all(set(i) == {"prefix", "file"} for i in d["libsandboxio_installs"])'

sbx doctor
expect_status 0
grep -qx "libsandboxio loaded: $want" "$OUT" || fail "the text does not name $want"
echo "PASS: doctor names the libsandboxio file loaded"
