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

# gc sweeps the default backend for an empty variable as for an unset one.
SANDBOXIO_DSN=
export SANDBOXIO_DSN
sbx gc --json
expect_status 0
json_check '[x["dsn"] for x in d] == ["local://"]'

# A DSN given wins over the variable; a set one is used.
SANDBOXIO_DSN=fake://
sbx gc --json
expect_status 0
json_check '[x["dsn"] for x in d] == ["fake://"]'
sbx gc --json local://
expect_status 0
json_check '[x["dsn"] for x in d] == ["local://"]'
