#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/docker/run.sh [BUILDDIR] - the docker backend's figures, side by side
# with the docker CLI, on a private dockerd started for the run (as root;
# the same daemon and busybox image the tests use).
#
#   1. one-shot `sandboxio run --dsn docker://... -- true` against
#      `docker run --rm --network none busybox true`, and against the same
#      with the hardening a sandbox gets, run in turn RUNS times
#      (bench-local compare): the medians of the per-round ratios;
#   2. exec of `true` into an open sandbox, each followed by `docker exec`
#      of `true` into the same container (bench-docker exec): the median of
#      the per-pair ratios;
#   3. where an open/exec/destroy sandbox's time goes (bench-docker phases).
# Running in turn, not in blocks, keeps a change of the machine's load from
# deciding a ratio. Figures are ratios to print, not asserts.
# The daemon uses overlay2, Docker's default storage driver; SBX_DOCKERD_STORAGE
# picks another (vfs is the tests' driver: it copies the image's files twice
# for every container, which both sides pay).
set -eu
: "${SBX_DOCKERD_STORAGE:=overlay2}"

builddir=$(cd "${1:-.}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
for t in src/sandboxio plugins/docker/sandboxio-docker.la bench/docker/bench-docker \
         bench/local/bench-local; do
    make -C "$builddir" -s "$t" >/dev/null
done

SBX_TEST_BUILDDIR=$builddir
SBX_TEST_SRCDIR=$src
. "$src/plugins/docker/tests/dockerd-start.sh"
# Run the real binaries, not libtool's wrapper scripts (a shell start each).
export LD_LIBRARY_PATH="$builddir/src/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export SANDBOXIO_PLUGIN_PATH="$builddir/plugins/docker/.libs"
cli="$builddir/src/.libs/sandboxio"
[ -x "$cli" ] || cli="$builddir/src/sandboxio"
bench="$builddir/bench/docker/.libs/bench-docker"
[ -x "$bench" ] || bench="$builddir/bench/docker/bench-docker"
compare="$builddir/bench/local/.libs/bench-local"
[ -x "$compare" ] || compare="$builddir/bench/local/bench-local"
runs=${RUNS:-30}
docker_cli="$DOCKER_CLI --host unix://$SOCK"

echo "# machine: $(uname -srm), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# dockerd $(docker version --format '{{.Server.Version}}'), storage $SBX_DOCKERD_STORAGE, docker CLI $DOCKER_CLI"
echo

echo "## 1. one-shot run of true (bench-local compare $runs: interleaved rounds)"
hardening="--init --network none --read-only --tmpfs /tmp --cap-drop ALL \
--security-opt no-new-privileges -v /work"
"$compare" compare "$runs" \
    "$docker_cli run --rm --network none busybox true" \
    "$docker_cli run --rm $hardening busybox true" \
    "$cli run --dsn $DSN -- true"
echo

echo "## 2. exec of true into an open sandbox, and docker exec into the same container"
"$bench" "$DSN" exec "$runs" $docker_cli
echo

echo "## 3. where an open, exec, destroy sandbox's time goes"
"$bench" "$DSN" phases 10
expect_no_leftovers
