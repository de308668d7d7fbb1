#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Bad DSNs, unknown backends and malformed values are sandboxio failures
# with their own exit status and SBX code, reported before anything runs.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"

sbx run --dsn nonsense --network open -- echo x
expect_error 120 SBX_E1003
# The man page in every build, then the page of the docs: the installed
# file:// one by default, or a site's (configure --with-docs-url).
grep -qx "  see: man SBX_E1003" "$ERR" || fail "no man page named for SBX_E1003"
grep -q "^   or: \(https\?\|file\)://.*/errors/SBX_E1003\.\(html\|md\)$" "$ERR" || fail "no docs URL for SBX_E1003"

sbx run --dsn nosuch:// --network open -- echo x
expect_error 121 SBX_E2001

# SANDBOXIO_DSN chooses the backend when --dsn does not; --dsn wins.
SANDBOXIO_DSN=nosuch://
export SANDBOXIO_DSN
sbx run --network open -- echo x
expect_error 121 SBX_E2001
sbx run --dsn fake:// --network open -- echo via-flag
expect_status 0
expect_stdout "via-flag"
SANDBOXIO_DSN=fake://

sbx run --memory 12Q --network open -- echo x
expect_error 120 SBX_E1015
sbx run --output-cap 1.2.3 --network open -- echo x
expect_error 120 SBX_E1015
sbx run --timeout abc --network open -- echo x
expect_error 120 SBX_E1015
sbx run --timeout 5d --network open -- echo x
expect_error 120 SBX_E1015
sbx run --timeout -1 --network open -- echo x
expect_error 120 SBX_E1015
sbx run --cpus many --network open -- echo x
expect_error 120 SBX_E1015
sbx run --pids 1.5 --network open -- echo x
expect_error 120 SBX_E1015
sbx run --memory 99999999999999999999 --network open -- echo x
expect_error 120 SBX_E1015

# Sizes that parse reach the policy check instead (the fake has no memory limit).
for size in 123 64k 512M 2G 1.5g; do
    sbx run --memory "$size" --network open -- echo x
    expect_error 122 SBX_E3004
done

sbx run --network sometimes -- echo x
expect_error 120 SBX_E1018
sbx run --network open --allow-host example.com -- echo x
expect_error 120 SBX_E1016
sbx run --network allowlist -- echo x
expect_error 120 SBX_E1016
sbx run --min-tier strong --network open -- echo x
expect_error 120 SBX_E1018
sbx run --env NOEQUALS --network open -- echo x
expect_error 120 SBX_E1018
sbx run --network open
expect_error 120 SBX_E1018

# --cwd is inside the sandbox: '..' is refused before anything runs, and an
# absolute path needs the cwd-abs capability, which the fake lacks.
sbx run --network open --cwd a/../.. -- pwd
expect_error 122 SBX_E3015
sbx run --network open --cwd / -- pwd
expect_error 122 SBX_E3012
# A missing working directory is made, as `docker run -w` does.
sbx run --network open --cwd no-such-dir -- pwd
expect_status 0
grep -q '/no-such-dir$' "$OUT" || fail "the command did not run in the directory made"
