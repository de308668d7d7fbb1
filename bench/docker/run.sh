#!/bin/sh
# bench/docker/run.sh [BUILDDIR] - the docker backend's figures, side by side
# with the docker CLI, on a private dockerd started for the run (as root;
# the same daemon and busybox image the tests use).
#
#   1. one-shot `sandboxio run --dsn docker://... -- true` against
#      `docker run --rm --network none busybox true`, and against the same
#      with the hardening a sandbox gets (hyperfine);
#   2. exec of `true` into an open sandbox (bench-docker exec) against
#      `docker exec` into a running container made the same way (hyperfine);
#   3. where the one-shot time goes: open, exec, destroy (bench-docker phases).
# Figures are ratios to print, not asserts: the machine's load moves them.
# SBX_DOCKERD_STORAGE=overlay2 runs it all on overlay2 instead of vfs.
set -eu

builddir=$(cd "${1:-.}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
for t in src/sandboxio plugins/docker/sandboxio-docker.la bench/docker/bench-docker; do
    make -C "$builddir" -s "$t" >/dev/null
done
command -v hyperfine >/dev/null 2>&1 || { echo "hyperfine is needed: apt-get install hyperfine" >&2; exit 1; }

SBX_TEST_BUILDDIR=$builddir
SBX_TEST_SRCDIR=$src
. "$src/plugins/docker/tests/dockerd-start.sh"
# Run the real binaries, not libtool's wrapper scripts (a shell start each).
export LD_LIBRARY_PATH="$builddir/src/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cli="$builddir/src/.libs/sandboxio"
[ -x "$cli" ] || cli="$builddir/src/sandboxio"
bench="$builddir/bench/docker/.libs/bench-docker"
[ -x "$bench" ] || bench="$builddir/bench/docker/bench-docker"
runs=${RUNS:-30}

echo "# machine: $(uname -srm), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# dockerd $(docker version --format '{{.Server.Version}}'), storage ${SBX_DOCKERD_STORAGE:-vfs}, docker CLI $DOCKER_CLI"
echo

echo "## 1. one-shot run of true"
hardening="--init --network none --read-only --tmpfs /tmp --cap-drop ALL \
--security-opt no-new-privileges -v /work"
hyperfine -N --warmup 3 --runs "$runs" --style basic \
    "$cli run --dsn $DSN -- true" \
    "$DOCKER_CLI --host unix://$SOCK run --rm --network none busybox true" \
    "$DOCKER_CLI --host unix://$SOCK run --rm $hardening busybox true"
echo

echo "## 2. exec of true into a running container"
c=$(docker run -d $hardening busybox sleep 1000000)
hyperfine -N --warmup 3 --runs "$runs" --style basic "$DOCKER_CLI --host unix://$SOCK exec $c true"
docker rm -f -v "$c" >/dev/null
"$bench" "$DSN" exec "$runs"
echo

echo "## 3. where a one-shot run's time goes"
"$bench" "$DSN" phases 10
expect_no_leftovers
