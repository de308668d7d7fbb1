#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# An empty SANDBOXIO_DSN names no backend: every command reads it by the one
# rule (src/cli/common/dsn.c), as if it were unset. gc and run then use
# the default backend, and doctor reports the variable as null, as for an
# unset one (it reported "<invalid DSN>" before the rule was shared).
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

SANDBOXIO_DSN=
export SANDBOXIO_DSN

sbx doctor --json
expect_status 0
json_check 'd["sandboxio_dsn"] is None'

unset SANDBOXIO_DSN
sbx doctor --json
expect_status 0
json_check 'd["sandboxio_dsn"] is None'

# gc sweeps the default backend for an empty variable as for an unset one
# (in a build without the local backend, it says it has no plugin for it).
SANDBOXIO_DSN=
export SANDBOXIO_DSN
have_local=
[ ! -e "$SBX_TEST_BUILDDIR/plugins/local/.libs/sandboxio-local.so" ] || have_local=1
sbx gc --json
if [ -n "$have_local" ]; then
    expect_status 0
    json_check '[x["dsn"] for x in d] == ["local://"]'
else
    expect_error 121 SBX_E2001
    expect_stderr_has 'collecting on local://'
fi

# A DSN given wins over the variable; a set one is used.
SANDBOXIO_DSN=fake://
sbx gc --json
expect_status 0
json_check '[x["dsn"] for x in d] == ["fake://"]'
if [ -n "$have_local" ]; then
    sbx gc --json local://
    expect_status 0
    json_check '[x["dsn"] for x in d] == ["local://"]'
fi
