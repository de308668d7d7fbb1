# SPDX-License-Identifier: Apache-2.0
# Sourced by a cloud backend's rig script (plugins/NAME/tests/NAME-rig.sh),
# not run: installs the doubles' npm packages (npm ci, once per lockfile),
# starts the rig (doubles/rig.js, the backend's spec-checked doubles behind
# Prism) on 127.0.0.1 ports it picks, and stops it on exit, leaving no
# process and no temp dir. Set before sourcing:
#   RIG_BACKEND    the backend's name: plugins/$RIG_BACKEND, its messages
#   RIG_NODE_FOR   who needs node 20.18.1 ("the e2b SDK")
#   RIG_ROOT_FOR   which double enters its sandboxes' namespaces ("the envd double")
#   RIG_NPM_OMIT   npm ci's --omit=... ("" to install all)
#   RIG_SPEC_NAME  whose spec Prism checks ("E2B's spec")
#   RIG_UNSET      the provider's environment variables no real setting may leak through
#   rig_env        a function: export the client's settings, from rig_get KEY
# After sourcing and `rig_start`:
#   RIG_DIR      the rig's state dir; RIG_JSON its rig.json
#   RIG_NODE     the doubles' directory (node_modules installed)
#   RIG_CONTROL  the control-plane double's own URL, for /_control/
#   SBX          the sandboxio built here (set at sourcing)
#   fail         report and exit 1
#   rig_no_violations   fail if Prism reported any spec violation
# Where node, npm, bwrap or root are missing the test is skipped (77) with
# the reason, except with CI=true, where it must run and a skip fails.

: "${SBX_TEST_SRCDIR:?run this test through make check}"
: "${SBX_TEST_BUILDDIR:?run this test through make check}"
: "${RIG_BACKEND:?set RIG_BACKEND before sourcing rest-rig.sh}"
# shellcheck disable=SC2034 # for the tests that source this
SBX="$SBX_TEST_BUILDDIR/src/sandboxio"

skip() {
    if [ "${CI:-}" = true ]; then
        echo "FAIL: $* (CI=true: the $RIG_BACKEND tests must run, not skip)" >&2
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
    skip "node $(node --version) is older than 20.18.1, which $RIG_NODE_FOR needs"
command -v bwrap >/dev/null 2>&1 || skip "bwrap is not installed (Debian: bubblewrap)"
command -v nsenter >/dev/null 2>&1 || skip "nsenter is not installed (Debian: util-linux)"
command -v flock >/dev/null 2>&1 || skip "flock is not installed (Debian: util-linux)"
command -v setsid >/dev/null 2>&1 || skip "setsid is not installed (Debian: util-linux)"
[ "$(id -u)" -eq 0 ] || skip "$RIG_ROOT_FOR enters its sandboxes' namespaces with nsenter, which needs root"

# The doubles run from the build tree (the source tree may be read-only,
# as in distcheck): their files are copied there and npm ci installs
# beside them, once per lockfile, under a lock so parallel tests share it.
RIG_SRC="$SBX_TEST_SRCDIR/plugins/$RIG_BACKEND"
RIG_BLD="$SBX_TEST_BUILDDIR/plugins/$RIG_BACKEND"
RIG_NODE="$RIG_BLD/tests/doubles"
rig_install() {
    mkdir -p "$RIG_NODE" "$RIG_BLD/spec"
    if [ "$(cd "$RIG_SRC" && pwd -P)" != "$(cd "$RIG_BLD" && pwd -P)" ]; then
        cp -Ru "$RIG_SRC"/spec/. "$RIG_BLD/spec/"
        cp -u "$RIG_SRC"/tests/doubles/*.js "$RIG_SRC"/tests/doubles/package.json \
            "$RIG_SRC"/tests/doubles/package-lock.json "$RIG_NODE/"
        # The doubles' shared base (rest-double.js), where they import it from.
        mkdir -p "$SBX_TEST_BUILDDIR/lib/tests/doubles"
        cp -u "$SBX_TEST_SRCDIR"/lib/tests/doubles/*.js "$SBX_TEST_BUILDDIR/lib/tests/doubles/"
        chmod -R u+w "$SBX_TEST_BUILDDIR/lib/tests/doubles"
        # Generated code (protobuf) is committed beside the doubles.
        if [ -d "$RIG_SRC/tests/doubles/gen" ]; then
            mkdir -p "$RIG_NODE/gen"
            cp -u "$RIG_SRC"/tests/doubles/gen/*.js "$RIG_NODE/gen/"
        fi
        chmod -R u+w "$RIG_BLD/spec" "$RIG_NODE"
    fi
    want="$(sha256sum "$RIG_NODE/package-lock.json" | cut -d' ' -f1)${RIG_NPM_OMIT:+ --omit=$RIG_NPM_OMIT}"
    stamp="$RIG_NODE/node_modules/.sandboxio-lock-sha256"
    if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
        (cd "$RIG_NODE" && npm ci ${RIG_NPM_OMIT:+--omit=$RIG_NPM_OMIT} --no-audit --no-fund \
            --loglevel=error) >"$RIG_NODE/npm-ci.log" 2>&1 || {
            tail -n 20 "$RIG_NODE/npm-ci.log" >&2
            return 1
        }
        echo "$want" >"$stamp"
    fi
}
mkdir -p "$RIG_BLD/tests"
exec 9>"$RIG_BLD/tests/npm-ci.lock"
flock 9
rig_install || {
    [ "${CI:-}" = true ] && fail "npm ci failed for the $RIG_BACKEND doubles"
    skip "npm ci failed for the $RIG_BACKEND doubles (no registry?)"
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

rig_get() { node -p "require('$RIG_JSON').$1"; }

rig_start() {
    RIG_DIR=$(mktemp -d "/tmp/sbx-$RIG_BACKEND-rig-XXXXXX")
    RIG_JSON="$RIG_DIR/rig.json"
    # No real setting of the provider may leak into the session.
    # shellcheck disable=SC2086 # a list of names
    unset $RIG_UNSET
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
    RIG_CONTROL=$(rig_get controlUrl)
    rig_env
}

rig_no_violations() {
    v=$(node -e "fetch('$RIG_CONTROL/_control/violations').then(r=>r.text()).then(t=>process.stdout.write(t))") ||
        fail "the rig's control endpoint did not answer"
    [ "$v" = "[]" ] || fail "Prism reported violations of $RIG_SPEC_NAME: $v"
}
