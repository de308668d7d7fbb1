# SPDX-License-Identifier: Apache-2.0
# Sourced by the churn tests, not run: puts the spec check's scripts in the
# build tree and installs their npm packages beside them (npm ci, once per
# lockfile, under a lock). Sets CHURN_DIR. Needs `skip` and `fail` (the
# caller's) and SBX_TEST_SRCDIR, SBX_TEST_BUILDDIR. The rigs load their wire
# recorder (lib/wire-record.js) from there when a test records: a file is
# copied only when the source is newer (cp -u), never rewritten under a rig
# of another test that is loading it.
command -v node >/dev/null 2>&1 || skip "node is not installed (Debian: nodejs)"
command -v npm >/dev/null 2>&1 || skip "npm is not installed (Debian: npm)"
command -v flock >/dev/null 2>&1 || skip "flock is not installed (Debian: util-linux)"
CHURN_SRC="$SBX_TEST_SRCDIR/tests/churn"
CHURN_DIR="$SBX_TEST_BUILDDIR/tests/churn"
churn_install() {
    mkdir -p "$CHURN_DIR/lib"
    if [ "$(cd "$CHURN_SRC" && pwd -P)" != "$(cd "$CHURN_DIR" && pwd -P)" ]; then
        cp -u "$CHURN_SRC"/*.js "$CHURN_SRC"/package.json "$CHURN_SRC"/package-lock.json "$CHURN_DIR/"
        cp -u "$CHURN_SRC"/lib/*.js "$CHURN_DIR/lib/"
        chmod -R u+w "$CHURN_DIR"
    fi
    want=$(sha256sum "$CHURN_DIR/package-lock.json" | cut -d' ' -f1)
    stamp="$CHURN_DIR/node_modules/.sandboxio-lock-sha256"
    [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && return 0
    (cd "$CHURN_DIR" && npm ci --no-audit --no-fund --loglevel=error) >"$CHURN_DIR/npm-ci.log" 2>&1 || {
        tail -n 20 "$CHURN_DIR/npm-ci.log" >&2
        return 1
    }
    echo "$want" >"$stamp"
}
mkdir -p "$CHURN_DIR"
exec 8>"$CHURN_DIR/npm-ci.lock"
flock 8
churn_install || {
    [ "${CI:-}" = true ] && fail "npm ci failed for the spec check (tests/churn)"
    skip "npm ci failed for the spec check (no registry?)"
}
flock -u 8
exec 8>&-
