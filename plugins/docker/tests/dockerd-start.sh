# SPDX-License-Identifier: Apache-2.0
# Sourced by the docker backend's tests, not run: starts a private dockerd
# on its own socket and data dir, imports a busybox image made from the
# host's busybox-static (no registry is reachable in CI), and stops it all
# on exit. After sourcing:
#   SBX       the sandboxio binary of the build tree
#   SOCK      the daemon's socket; DSN=docker://$SOCK?image=busybox
#   docker    a function running the docker CLI against that daemon
#   fail      report and exit 1
# SBX_DOCKERD_STORAGE picks the storage driver (default vfs, which works
# everywhere; bench/docker/run.sh also measures overlay2).
# Where dockerd cannot run (not root, not installed, no kernel support) the
# test is skipped (77) with the reason, except with CI=true, where the docker
# tests must run and a skip becomes a failure.

: "${SBX_TEST_BUILDDIR:?run this test through make check}"
SBX="$SBX_TEST_BUILDDIR/src/sandboxio"
[ -x "$SBX" ] || { echo "ERROR: $SBX is not built" >&2; exit 99; }
[ -f "$SBX_TEST_BUILDDIR/plugins/docker/.libs/sandboxio-docker.so" ] ||
    { echo "ERROR: the docker plugin is not built" >&2; exit 99; }

skip() {
    if [ "${CI:-}" = true ]; then
        echo "FAIL: $* (CI=true: the docker tests must run, not skip)" >&2
        exit 1
    fi
    echo "SKIP: $*"
    exit 77
}

fail() {
    echo "FAIL: $*" >&2
    if [ -n "${SBX_DOCKERD_DIR:-}" ] && [ -f "$SBX_DOCKERD_DIR/dockerd.log" ]; then
        echo "--- last lines of dockerd's log:" >&2
        tail -n 15 "$SBX_DOCKERD_DIR/dockerd.log" >&2
    fi
    exit 1
}

[ "$(id -u)" -eq 0 ] || skip "dockerd needs root to start a private daemon"
command -v dockerd >/dev/null 2>&1 || skip "dockerd is not installed (Debian: docker.io)"
DOCKER_CLI=$(command -v docker 2>/dev/null) || skip "the docker CLI is not installed (Debian: docker.io)"
BUSYBOX=
for candidate in /bin/busybox /usr/bin/busybox; do
    [ -x "$candidate" ] && BUSYBOX=$candidate && break
done
[ -n "$BUSYBOX" ] || skip "busybox is not installed (Debian: busybox-static)"
# The image gets busybox alone: it must not need shared libraries.
if LC_ALL=C ldd "$BUSYBOX" >/dev/null 2>&1; then
    skip "$BUSYBOX is dynamically linked (install busybox-static)"
fi

SBX_DOCKERD_DIR=$(mktemp -d /tmp/sbx-dockerd-XXXXXX)
SOCK="$SBX_DOCKERD_DIR/docker.sock"
DSN="docker://$SOCK?image=busybox"
DOCKERD_PID=

docker() {
    "$DOCKER_CLI" --host "unix://$SOCK" "$@"
}

dockerd_stop() {
    if [ -n "$DOCKERD_PID" ] && kill -0 "$DOCKERD_PID" 2>/dev/null; then
        kill -TERM "$DOCKERD_PID" 2>/dev/null || true
        i=0
        while kill -0 "$DOCKERD_PID" 2>/dev/null && [ $i -lt 200 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        kill -KILL "$DOCKERD_PID" 2>/dev/null || true
        wait "$DOCKERD_PID" 2>/dev/null || true
    fi
    # The daemon's containerd and shims live under the exec root.
    for p in $(grep -ls "$SBX_DOCKERD_DIR" /proc/[0-9]*/cmdline 2>/dev/null | cut -d/ -f3); do
        kill -KILL "$p" 2>/dev/null || true
    done
    # Mounts it may have left (netns, shm): deepest first.
    awk -v d="$SBX_DOCKERD_DIR" '$5 ~ "^" d { print $5 }' /proc/self/mountinfo | sort -r |
        while read -r m; do umount -l "$m" 2>/dev/null || true; done
    rm -rf "$SBX_DOCKERD_DIR"
}
trap dockerd_stop EXIT

# A test may also ask for a TLS listener: SBX_DOCKERD_TLS_DIR holding
# ca.pem, server-cert.pem, server-key.pem, and SBX_DOCKERD_TCP=127.0.0.1:PORT.
set -- --host "unix://$SOCK"
if [ -n "${SBX_DOCKERD_TLS_DIR:-}" ]; then
    set -- "$@" --host "tcp://$SBX_DOCKERD_TCP" --tlsverify \
        --tlscacert "$SBX_DOCKERD_TLS_DIR/ca.pem" --tlscert "$SBX_DOCKERD_TLS_DIR/server-cert.pem" \
        --tlskey "$SBX_DOCKERD_TLS_DIR/server-key.pem"
fi
# Own containerd namespaces: should a system containerd be running, this
# daemon's containers never meet another daemon's there.
dockerd "$@" --data-root "$SBX_DOCKERD_DIR/data" \
    --exec-root "$SBX_DOCKERD_DIR/exec" --pidfile "$SBX_DOCKERD_DIR/dockerd.pid" \
    --storage-driver="${SBX_DOCKERD_STORAGE:-vfs}" --iptables=false --ip-forward=false --ip-masq=false \
    --bridge=none --userland-proxy=false \
    --containerd-namespace "sbx-test-$$" --containerd-plugins-namespace "sbx-test-plugins-$$" \
    >"$SBX_DOCKERD_DIR/dockerd.log" 2>&1 &
DOCKERD_PID=$!

i=0
until docker version --format '{{.Server.Version}}' >/dev/null 2>&1; do
    if ! kill -0 "$DOCKERD_PID" 2>/dev/null; then
        reason=$(grep -E 'level=(fatal|error)' "$SBX_DOCKERD_DIR/dockerd.log" | tail -n 1)
        DOCKERD_PID=
        skip "dockerd did not start: ${reason:-see its log}"
    fi
    i=$((i + 1))
    [ $i -lt 600 ] || skip "dockerd did not answer within 60 s"
    sleep 0.1
done
echo "dockerd $(docker version --format '{{.Server.Version}}') on $SOCK"

# A busybox image: /bin/busybox and a link per applet, nothing else.
ROOTFS="$SBX_DOCKERD_DIR/rootfs"
mkdir -p "$ROOTFS/bin" "$ROOTFS/etc" "$ROOTFS/tmp" "$ROOTFS/work"
cp "$BUSYBOX" "$ROOTFS/bin/busybox"
for applet in $("$BUSYBOX" --list); do
    [ "$applet" = busybox ] || ln -s busybox "$ROOTFS/bin/$applet"
done
echo 'root:x:0:0:root:/root:/bin/sh' >"$ROOTFS/etc/passwd"
echo 'root:x:0:' >"$ROOTFS/etc/group"
tar -C "$ROOTFS" -cf "$SBX_DOCKERD_DIR/busybox.tar" . || fail "cannot tar the busybox rootfs"
docker import "$SBX_DOCKERD_DIR/busybox.tar" busybox:latest >/dev/null ||
    fail "docker import of the busybox rootfs failed"
rm -rf "$ROOTFS" "$SBX_DOCKERD_DIR/busybox.tar"

# A container must start here (kernel, cgroups, seccomp): else skip, with why.
if ! out=$(docker run --rm --network none busybox true 2>&1); then
    skip "dockerd cannot run a container here: $out"
fi

SANDBOXIO_PLUGIN_PATH="$SBX_TEST_BUILDDIR/plugins/docker/.libs${SANDBOXIO_PLUGIN_PATH:+:$SANDBOXIO_PLUGIN_PATH}"
export SANDBOXIO_PLUGIN_PATH
unset DOCKER_HOST DOCKER_TLS_VERIFY DOCKER_CERT_PATH DOCKER_API_VERSION

# No sandbox of this backend may be left behind (its containers are labelled).
expect_no_leftovers() {
    left=$(docker ps -aq --filter label=io.sandboxio.sandbox)
    [ -z "$left" ] || fail "containers left behind: $left"
    vols=$(docker volume ls -q)
    [ -z "$vols" ] || fail "volumes left behind: $vols"
}
