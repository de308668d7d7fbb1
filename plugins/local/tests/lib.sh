# SPDX-License-Identifier: Apache-2.0
# Sourced by local's shell tests, not run: sets b (the build tree) and the
# init to use, and skips (77) where user namespaces cannot be created,
# failing instead under SANDBOXIO_MUST_WORK=1.
b=${SBX_TEST_BUILDDIR:?}
SANDBOXIO_LOCAL_INIT=${SANDBOXIO_LOCAL_INIT:-$b/plugins/local/sandboxio-local-init}
export SANDBOXIO_LOCAL_INIT
if ! unshare -U true 2>/dev/null; then
    echo "this machine cannot create user namespaces: local:// cannot run here" >&2
    [ "${SANDBOXIO_MUST_WORK:-0}" = 1 ] && exit 1
    exit 77
fi
