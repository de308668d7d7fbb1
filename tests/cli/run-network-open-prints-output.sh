#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `run --network open` on fake:// runs the command and streams its output
# to our own stdout and stderr; stdin reaches it with --stdin, or streamed
# when it is a pipe.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

sbx run --dsn fake:// --network open -- echo hello sandbox
expect_status 0
expect_stdout "hello sandbox"
[ ! -s "$ERR" ] || fail "unexpected stderr"

sbx run --dsn fake:// --network open -- sh -c 'echo to-out; echo to-err >&2'
expect_status 0
expect_stdout "to-out"
[ "$(cat "$ERR")" = "to-err" ] || fail "stderr is not the command's"

# SANDBOXIO_DSN names the backend when --dsn does not.
sbx run --network open -- echo from SANDBOXIO_DSN
expect_status 0
expect_stdout "from SANDBOXIO_DSN"

# Without either, the compiled-in default backend, local://, is used: with
# the default policy (no network), which it can guarantee. A build without
# the local backend (configure --disable-local) still defaults to it, and
# says the plugin is missing unless one is installed.
unset SANDBOXIO_DSN
sbx run --json -- echo default backend
if [ ! -e "$SBX_TEST_BUILDDIR/plugins/local/.libs/sandboxio-local.so" ] && [ "$status" -eq 121 ]; then
    grep -q '"id":"SBX_E2001".*no plugin for scheme .local.' "$OUT" ||
        fail "without the local plugin, the default backend is not local"
else
    expect_status 0
    grep -q '"backend":"local"' "$OUT" || fail "the default backend is not local"
    grep -q '"stdout":"default backend\\n"' "$OUT" || fail "no output from the default backend"
fi
SANDBOXIO_DSN=fake://
export SANDBOXIO_DSN

sbx_in "fed through" run --network open --stdin -- cat
expect_status 0
expect_stdout "fed through"

# Without --stdin, piped stdin is streamed as -i does (it used to be
# dropped without a word); stdin from /dev/null is EOF at once.
sbx_in "streamed" run --network open -- cat
expect_status 0
expect_stdout "streamed"
sbx run --network open -- cat
expect_status 0
expect_stdout ""
