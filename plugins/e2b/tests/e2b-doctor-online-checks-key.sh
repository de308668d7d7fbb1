#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio doctor --online` contacts E2B's control plane through the
# e2b plugin's ping: with the rig's key it is ok and names the endpoint,
# after one authenticated GET /v2/sandboxes and nothing made; a key the
# control plane refuses is SBX_E4002 with E2B's message; no E2B_API_KEY is
# SBX_E4017 before any request; a control plane nobody serves is SBX_E4001
# naming its URL.
set -eu
. "$SBX_TEST_SRCDIR/plugins/e2b/tests/e2b-rig.sh"
. "$SBX_TEST_SRCDIR/plugins/e2b/tests/e2b-control.sh"

# Only this plugin: the report is about E2B, no other backend is contacted.
SANDBOXIO_PLUGIN_PATH="$SBX_TEST_BUILDDIR/plugins/e2b/.libs"
export SANDBOXIO_PLUGIN_PATH
unset SANDBOXIO_DSN

# e2b_entry JS: run doctor --online --json and check JS about `e`, its e2b entry.
e2b_entry() {
    out=$("$SBX" doctor --online --json) || fail "doctor --online exited $?: $out"
    printf '%s' "$out" | node -e '
let t = ""; process.stdin.on("data", (c) => (t += c)).on("end", () => {
  const e = (JSON.parse(t).online || []).find((x) => x.scheme === "e2b");
  if (!e) { console.error("no e2b entry in: " + t); process.exit(1); }
  if (!eval(process.argv[1])) { console.error("not (" + process.argv[1] + "): " + JSON.stringify(e)); process.exit(1); }
});' "$1" || fail "doctor --online's e2b entry is not as expected"
}

rig_start

# The rig's key: ok, the endpoint named, one list call, nothing created.
ctl_reset
e2b_entry 'e.status === "ok" && e.reached && e.code === 0 && e.message === null &&
  e.detail === "E2B control plane at " + process.env.E2B_API_URL + " (API key accepted)"'
ctl_check "
expect(requests.map((r) => r.method + ' ' + r.path).join(','), 'GET /v2/sandboxes?limit=1', 'the calls of a ping');
"
ctl_no_sandboxes
text=$("$SBX" doctor --online) || fail "doctor --online (text) failed"
case $text in *"e2b      ok: E2B control plane at $E2B_API_URL"*) ;; *) fail "the text report lacks the ok line: $text" ;; esac

# A key the control plane refuses: the auth error with E2B's message, not retried.
ctl_reset
E2B_API_KEY=e2b_0000000000000000000000000000000000000000 e2b_entry \
  'e.status === "SBX_E4002" && !e.reached && e.code === 4002 && e.detail === null &&
   e.message.includes("Invalid API key")'
ctl_check "expect(requests.length, 1, 'requests after a 401 (never retried)');"

# No key at all: the credential error, and no request made.
ctl_reset
(unset E2B_API_KEY; e2b_entry 'e.status === "SBX_E4017" && e.code === 4017 && e.message.includes("E2B_API_KEY")')
ctl_check "expect(requests.length, 0, 'requests without a key');"

# Nothing serves the control plane: unreachable, naming the URL.
E2B_API_URL=http://127.0.0.1:1 e2b_entry \
  'e.status === "SBX_E4001" && e.code === 4001 && e.message.includes("http://127.0.0.1:1")'

rig_no_violations
rig_stop
echo "PASS: doctor --online checks E2B's key: ok, a refused key, no key, an unreachable control plane"
