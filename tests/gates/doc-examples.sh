#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The executable-docs gate passes on the tree (every C block of README.md and
# docs/ compiles with -Wall -Wextra -Werror and runs), and turns red on a
# block that does not compile, one with a warning, one that fails when run,
# a runnable shell block that fails, a marker without a reason and a YAML
# block that is not a valid profiles file; a docker:// DSN in a block runs
# on the fake backend.
set -u
src=${SBX_TEST_SRCDIR:?}; build=${SBX_TEST_BUILDDIR:?}
gate="$src/scripts/check-doc-examples.py"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; [ "${CI:-}" = true ] && exit 1; exit 77; }
# Build the blocks as the library was built (the sanitizer flags included).
export CC="${SBX_TEST_CC:-cc}" CFLAGS="${SBX_TEST_SAN_CFLAGS:-}" LDFLAGS="${SBX_TEST_SAN_LDFLAGS:-}"

python3 "$gate" "$src" "$build" || fail "the gate is red on the tree itself"

expect() { # expect pass|fail WHAT FILE-CONTENT
    printf '%s\n' "$3" >"$tmp/doc.md"
    out=$(python3 "$gate" "$src" "$build" "$tmp/doc.md" 2>&1); rc=$?
    case $1 in
    pass) [ $rc -eq 0 ] || fail "$2: red: $out" ;;
    fail) [ $rc -eq 1 ] || fail "$2: not red (exit $rc): $out" ;;
    esac
}
fence='```'
expect fail "a C block that does not compile" "$fence"'c
#include <sandboxio/sandboxio.h>
int main(void) { return sbx_no_such_function(); }
'"$fence"
expect fail "a C block with a warning" "$fence"'c
int main(void) { int unused; return 0; }
'"$fence"
expect fail "a C block that fails when run" "$fence"'c
int main(void) { return 3; }
'"$fence"
expect pass "a C block that exits as its marker says" '<!-- example: run exit=3 -->
'"$fence"'c
int main(void) { return 3; }
'"$fence"
expect fail "compile-only without a reason" '<!-- example: compile-only -->
'"$fence"'c
int main(void) { return 0; }
'"$fence"
expect pass "compile-only with a reason" '<!-- example: compile-only: needs a network -->
'"$fence"'c
int main(void) { return 1; }
'"$fence"
expect fail "a runnable shell block that fails" '<!-- example: run -->
'"$fence"'sh
sandboxio run --dsn fake:// -- true
'"$fence"
expect pass "a runnable shell block" '<!-- example: run exit=122 -->
'"$fence"'sh
sandboxio run --dsn fake:// -- true
'"$fence"
expect pass "a shell block not marked runnable" "$fence"'sh
false
'"$fence"
expect pass "a docker:// DSN resolved to the fake" "$fence"'c
#include <string.h>
#include <sandboxio/sandboxio.h>
int main(void)
{
    sbx_client *client;
    sbx_policy *policy;
    sbx_sandbox *sb;
    int ok;
    sbx_client_new(&client);
    sbx_policy_new(&policy);
    sbx_policy_set_network(policy, SBX_NET_OPEN);
    if (sbx_sandbox_open(&sb, client, "docker:///var/run/docker.sock", policy) != SBX_OK)
        return 1;
    ok = strcmp(sbx_sandbox_backend(sb), "fake") == 0;
    sbx_sandbox_free(sb);
    sbx_policy_free(policy);
    sbx_client_free(client);
    return ok ? 0 : 2;
}
'"$fence"
expect pass "a YAML profiles block" "$fence"'yaml
p:
  memory: 1G
'"$fence"
expect fail "a YAML block with an unknown key" "$fence"'yaml
p:
  netwrok: open
'"$fence"
expect pass "a YAML block refused as its marker says" '<!-- example: run exit=120 -->
'"$fence"'yaml
p:
  memory: 512MB
'"$fence"
expect pass "a YAML block that is no profiles file, skipped with its reason" '<!-- example: skip: a CI workflow -->
'"$fence"'yaml
jobs: [build]
'"$fence"
echo "PASS: broken, warning, failing and unmarked blocks turn the gate red"
