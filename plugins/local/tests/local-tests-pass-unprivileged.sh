#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Run the local plugin's tests and escape battery again as an unprivileged
# user (nobody), the way most users run sandboxio. When the tests run as
# root (CI), setpriv drops to uid/gid 65534 with no supplementary groups;
# when they already run unprivileged, they run as they are.
set -eu

b=${SBX_TEST_BUILDDIR:?}
init=$b/plugins/local/sandboxio-local-init
plugin=$b/plugins/local/.libs/sandboxio-local.so
for f in "$init" "$plugin" "$b/plugins/local/tests/test_local_exec" \
         "$b/plugins/local/tests/test_local_lifecycle" "$b/plugins/local/tests/test_local_detach" \
         "$b/plugins/local/tests/test_local_escape" \
         "$b/plugins/local/tests/escape-probe"; do
    if [ ! -e "$f" ]; then
        echo "local-tests-pass-unprivileged.sh: missing $f" >&2
        exit 99
    fi
done

if [ "$(id -u)" = 0 ]; then
    if ! command -v setpriv >/dev/null 2>&1; then
        echo "SKIP: setpriv (util-linux) is not installed" >&2
        exit 77
    fi
    as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups --"
else
    as_nobody=
fi

# The build tree may sit under a directory nobody cannot enter: copy what
# the tests need into a world-readable temporary directory.
tmp=$(mktemp -d /tmp/sbx-local-unpriv.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
cp "$init" "$plugin" "$b/plugins/local/tests/test_local_exec" "$b/plugins/local/tests/test_local_lifecycle" \
   "$b/plugins/local/tests/test_local_detach" \
   "$b/plugins/local/tests/test_local_escape" "$b/plugins/local/tests/escape-probe" "$tmp/"
# The CLI for the contract suite: libtool keeps the real binaries in .libs.
# A program in a .libs directory finds its parts (`contract` is one) in the
# directory above, as in the build tree (src/cli/parts.c).
cli=
if [ -x "$b/src/.libs/sandboxio" ] && [ -x "$b/src/.libs/sandboxio-contract" ]; then
    mkdir "$tmp/.libs"
    cp "$b/src/.libs/sandboxio" "$b"/src/.libs/libsandboxio.so* "$tmp/.libs/"
    cp "$b/src/.libs/sandboxio-contract" "$tmp/"
    chmod 755 "$tmp/.libs" "$tmp"/.libs/*
    cli="$tmp/.libs/sandboxio"
fi
chmod 755 "$tmp" "$tmp"/*
# nobody's own home (root's is not): without XDG_RUNTIME_DIR, sandboxes
# with a TTL have their runtime directory there.
if [ -n "$as_nobody" ]; then
    mkdir -m 0700 "$tmp/home"
    chown 65534:65534 "$tmp/home"
    export HOME="$tmp/home"
fi

export SANDBOXIO_PLUGIN_PATH="$tmp" SANDBOXIO_LOCAL_INIT="$tmp/sandboxio-local-init" \
       SBX_LOCAL_PROBE="$tmp/escape-probe" SBX_TEST_BUILDDIR="$tmp" CK_DEFAULT_TIMEOUT=120

# Can this user create a user namespace at all? If not, the plugin must say
# so with SBX_E4008 (test_local_exec checks that code in a namespace of its own
# with user.max_user_namespaces=0); nothing else can run: skip.
if ! $as_nobody unshare -U true 2>/dev/null; then
    echo "SKIP: unprivileged user namespaces are disabled on this machine" \
         "(kernel.unprivileged_userns_clone / user.max_user_namespaces)" >&2
    exit 77
fi

cd "$tmp"
$as_nobody "$tmp/test_local_exec"
$as_nobody "$tmp/test_local_lifecycle"
$as_nobody "$tmp/test_local_detach"
$as_nobody "$tmp/test_local_escape"
if [ -n "$cli" ]; then
    $as_nobody env LD_LIBRARY_PATH="$tmp/.libs" "$cli" contract local://
else
    echo "note: no built CLI in $b/src/.libs: contract suite not run unprivileged" >&2
fi
