# SPDX-License-Identifier: Apache-2.0
# Sourced by the e2b backend's tests, not run: installs the doubles' npm
# packages (npm ci, once per lockfile), starts the rig (doubles/rig.js: the
# envd and control-plane doubles, Prism before the control plane) on
# 127.0.0.1 ports it picks, and stops it on exit, leaving no process and no
# temp dir. After sourcing and `rig_start`:
#   RIG_DIR      the rig's state dir; RIG_JSON its rig.json
#   RIG_NODE     the doubles' directory (node_modules installed)
#   E2B_API_URL, E2B_SANDBOX_URL, E2B_API_KEY   exported, pointing at it
#   RIG_CONTROL  the double's own URL, for /_control/
#   fail         report and exit 1
#   rig_no_violations   fail if Prism reported any spec violation
# Where node, npm, bwrap or root are missing the test is skipped (77) with
# the reason, except with CI=true, where it must run and a skip fails.

: "${SBX_TEST_SRCDIR:?run this test through make check}"
: "${SBX_TEST_BUILDDIR:?run this test through make check}"

skip() {
    if [ "${CI:-}" = true ]; then
        echo "FAIL: $* (CI=true: the e2b tests must run, not skip)" >&2
        exit 1
    fi
    echo "SKIP: $*"
    exit 77
}

RIG_DIR=
RIG_PID=

fail() {
    echo "FAIL: $*" >&2
    if [ -n "$RIG_DIR" ] && [ -f "$RIG_DIR/rig.out" ]; then
        echo "--- the rig's output:" >&2
        tail -n 20 "$RIG_DIR/rig.out" >&2
    fi
    exit 1
}

command -v node >/dev/null 2>&1 || skip "node is not installed (Debian: nodejs)"
command -v npm >/dev/null 2>&1 || skip "npm is not installed (Debian: npm)"
node -e 'const [a,b,c]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&(b>18||(b===18&&c>=1)))?0:1)' ||
    skip "node $(node --version) is older than 20.18.1, which the e2b SDK needs"
command -v bwrap >/dev/null 2>&1 || skip "bwrap is not installed (Debian: bubblewrap)"
command -v nsenter >/dev/null 2>&1 || skip "nsenter is not installed (Debian: util-linux)"
command -v flock >/dev/null 2>&1 || skip "flock is not installed (Debian: util-linux)"
command -v setsid >/dev/null 2>&1 || skip "setsid is not installed (Debian: util-linux)"
[ "$(id -u)" -eq 0 ] || skip "the envd double enters its sandboxes' namespaces with nsenter, which needs root"

# The doubles run from the build tree (the source tree may be read-only,
# as in distcheck): their files are copied there and npm ci installs
# beside them, once per lockfile, under a lock so parallel tests share it.
SRC_E2B="$SBX_TEST_SRCDIR/plugins/e2b"
BLD_E2B="$SBX_TEST_BUILDDIR/plugins/e2b"
RIG_NODE="$BLD_E2B/tests/doubles"
rig_install() {
    mkdir -p "$RIG_NODE/gen" "$BLD_E2B/spec"
    if [ "$(cd "$SRC_E2B" && pwd -P)" != "$(cd "$BLD_E2B" && pwd -P)" ]; then
        cp -Ru "$SRC_E2B"/spec/. "$BLD_E2B/spec/"
        cp -u "$SRC_E2B"/tests/doubles/*.js "$SRC_E2B"/tests/doubles/package.json \
            "$SRC_E2B"/tests/doubles/package-lock.json "$RIG_NODE/"
        cp -u "$SRC_E2B"/tests/doubles/gen/*.js "$RIG_NODE/gen/"
        chmod -R u+w "$BLD_E2B/spec" "$RIG_NODE"
    fi
    want="$(sha256sum "$RIG_NODE/package-lock.json" | cut -d' ' -f1) --omit=dev"
    stamp="$RIG_NODE/node_modules/.sandboxio-lock-sha256"
    if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
        # The code generators (devDependencies) are not needed: their output is committed.
        (cd "$RIG_NODE" && npm ci --omit=dev --no-audit --no-fund --loglevel=error) >"$RIG_NODE/npm-ci.log" 2>&1 || {
            tail -n 20 "$RIG_NODE/npm-ci.log" >&2
            return 1
        }
        echo "$want" >"$stamp"
    fi
}
mkdir -p "$BLD_E2B/tests"
exec 9>"$BLD_E2B/tests/npm-ci.lock"
flock 9
rig_install || {
    [ "${CI:-}" = true ] && fail "npm ci failed for the e2b doubles"
    skip "npm ci failed for the e2b doubles (no registry?)"
}
flock -u 9
exec 9>&-

rig_stop() {
    if [ -n "$RIG_PID" ]; then
        # The rig runs in its own process group: Prism, the sandboxes'
        # holders and their commands all go with it.
        kill -TERM "-$RIG_PID" 2>/dev/null || true
        # The rig stops its sandboxes and Prism on SIGTERM; one that hangs
        # is killed, with all its group, after 10 s.
        (sleep 10 & s=$!
         trap 'kill $s 2>/dev/null; exit 0' TERM
         wait $s && kill -KILL "-$RIG_PID" 2>/dev/null) &
        guard=$!
        wait "$RIG_PID" 2>/dev/null || true
        kill "$guard" 2>/dev/null || true
        wait "$guard" 2>/dev/null || true
        kill -KILL "-$RIG_PID" 2>/dev/null || true
        RIG_PID=
    fi
    if [ -n "$RIG_DIR" ]; then
        # Nothing of this run may remain (its state dir is in every
        # sandbox's bwrap command line).
        if pgrep -f "$RIG_DIR" >/dev/null 2>&1; then
            echo "FAIL: processes of the rig survived it:" >&2
            pgrep -af "$RIG_DIR" >&2
            rm -rf "$RIG_DIR"
            RIG_DIR=
            exit 1
        fi
        rm -rf "$RIG_DIR"
        RIG_DIR=
    fi
}
trap 'rig_stop' EXIT
trap 'exit 1' INT TERM

rig_start() {
    RIG_DIR=$(mktemp -d /tmp/sbx-e2b-rig-XXXXXX)
    RIG_JSON="$RIG_DIR/rig.json"
    # No real E2B setting may leak into the session.
    unset E2B_DEBUG E2B_DOMAIN E2B_ACCESS_TOKEN
    setsid node "$RIG_NODE/rig.js" "$RIG_DIR" >"$RIG_DIR/rig.out" 2>&1 &
    RIG_PID=$!
    i=0
    while [ ! -f "$RIG_JSON" ]; do
        kill -0 "$RIG_PID" 2>/dev/null || fail "the rig exited before it was ready"
        # Prism reads the whole spec first: slow on a loaded machine.
        [ $i -lt 2400 ] || fail "the rig was not ready within 240 s"
        sleep 0.1
        i=$((i + 1))
    done
    rig_get() { node -p "require('$RIG_JSON').$1"; }
    E2B_API_URL=$(rig_get apiUrl)
    E2B_SANDBOX_URL=$(rig_get sandboxUrl)
    E2B_API_KEY=$(rig_get apiKey)
    RIG_CONTROL=$(rig_get controlUrl)
    export E2B_API_URL E2B_SANDBOX_URL E2B_API_KEY
}

rig_no_violations() {
    v=$(node -e "fetch('$RIG_CONTROL/_control/violations').then(r=>r.text()).then(t=>process.stdout.write(t))") ||
        fail "the rig's control endpoint did not answer"
    [ "$v" = "[]" ] || fail "Prism reported violations of E2B's spec: $v"
}
