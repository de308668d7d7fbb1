# SPDX-License-Identifier: Apache-2.0
# Sourced by a cloud backend's wire and fault tests after its rig script:
# the rig's control endpoints from the shell. Set before sourcing:
#   RIG_SIDE_LOG   the control path of the second service's recorded
#                  requests (/_control/envd-requests, /_control/toolbox-requests)
#   RIG_SIDE_NAME  the name ctl_check gives that list (envd, toolbox)
# and RIG_CONTROL (the rig script sets it).
#   ctl METHOD PATH [JSON]   one call to the double's /_control/ endpoints
#   ctl_reset                forget recorded requests and armed faults
#   ctl_fault JSON           arm a fault rule (the rig's doubles/faults.js)
#   ctl_check JS             run JS with `requests` (control plane), `api`
#                            (those but /_control/ calls) and the second
#                            service's requests recorded, and
#                            expect(got, want, what)
#   ctl_no_sandboxes         fail if a sandbox is still alive
#   ctl_echo DSN WORD WHAT   `sandboxio run` of `echo WORD` prints WORD
#                            (WHAT names the run in a failure)
#   expect_failure CODE EXIT TEXT DSN CMD...
#                            `sandboxio run` of CMD fails with CODE, exit
#                            EXIT and TEXT in its message
#   ctl_policy_refused DSN OPTION...
#                            each policy option (as `run` takes it: "--memory
#                            64M", one word each) is refused (exit 122, its
#                            SBX_E3xxx) before any request

: "${RIG_SIDE_LOG:?set RIG_SIDE_LOG before sourcing rig-control.sh}"
: "${RIG_SIDE_NAME:?set RIG_SIDE_NAME before sourcing rig-control.sh}"
export RIG_SIDE_LOG RIG_SIDE_NAME

ctl() {
    node -e '
const [m, p, b] = process.argv.slice(1);
fetch(process.env.RIG_CONTROL + p, { method: m, body: b || undefined,
  headers: b ? { "content-type": "application/json" } : {} })
  .then(async (r) => { const t = await r.text(); if (r.status >= 300) { console.error(r.status, t); process.exit(1); } process.stdout.write(t); })
  .catch((e) => { console.error(e.message); process.exit(1); });' "$@"
}
export RIG_CONTROL

ctl_reset() {
    ctl DELETE /_control/requests >/dev/null && ctl DELETE "$RIG_SIDE_LOG" >/dev/null &&
        ctl DELETE /_control/faults >/dev/null || fail "the rig's control endpoint did not answer"
}

ctl_fault() {
    ctl POST /_control/faults "$1" >/dev/null || fail "could not arm the fault $1"
}

ctl_check() {
    node -e '
(async () => {
  const get = async (p) => (await fetch(process.env.RIG_CONTROL + p)).json();
  const requests = await get("/_control/requests");
  const api = requests.filter((r) => !r.path.startsWith("/_control"));
  globalThis[process.env.RIG_SIDE_NAME] = await get(process.env.RIG_SIDE_LOG);
  let bad = 0;
  const expect = (got, want, what) => {
    if (got !== want) { bad++; console.error(`FAIL: ${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`); }
  };
  eval(process.argv[1]);
  process.exit(bad ? 1 : 0);
})().catch((e) => { console.error(e); process.exit(1); });' "$1" || fail "the recorded requests are not the expected ones"
}

ctl_no_sandboxes() {
    left=$(ctl GET /_control/sandboxes) || fail "the rig's control endpoint did not answer"
    [ "$left" = "[]" ] || fail "sandboxes left behind: $left"
}

ctl_echo() {
    out=$("$SBX_TEST_BUILDDIR/src/sandboxio" run --dsn "$1" -- echo "$2") || fail "run $3 failed"
    [ "$out" = "$2" ] || fail "run $3 printed '$out'"
}

expect_failure() {
    code=$1 want=$2 text=$3 dsn=$4
    shift 4
    set +e
    err=$("$SBX_TEST_BUILDDIR/src/sandboxio" run --dsn "$dsn" -- "$@" 2>&1)
    st=$?
    set -e
    case $err in *"$code"*) ;; *) fail "$*: expected $code, got (exit $st): $err" ;; esac
    case $err in *"$text"*) ;; *) fail "$*: the message lacks \"$text\": $err" ;; esac
    [ "$st" -eq "$want" ] || fail "$*: exit $st, expected $want: $err"
}

ctl_policy_refused() {
    dsn=$1
    shift
    for opt in "$@"; do
        ctl_reset
        set +e
        # shellcheck disable=SC2086 # an option and its value
        err=$("$SBX_TEST_BUILDDIR/src/sandboxio" run --dsn "$dsn" $opt -- true 2>&1)
        st=$?
        set -e
        [ "$st" -eq 122 ] || fail "$opt: exit $st, expected the policy refusal 122 ($err)"
        case $opt in
        --memory*) code=SBX_E3004 ;; --cpus*) code=SBX_E3005 ;; --pids*) code=SBX_E3006 ;;
        --disk*) code=SBX_E3016 ;; *) code=SBX_E3003 ;;
        esac
        case $err in *"$code"*) ;; *) fail "$opt: expected $code, got: $err" ;; esac
        ctl_check "expect(requests.length + $RIG_SIDE_NAME.length, 0, 'requests sent for a refused policy ($opt)');"
    done
}
