#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/local/run.sh [BUILDDIR] - the local backend's figures, side by side.
#
# Builds what it needs in BUILDDIR (default: the current directory, a
# configured build tree), then measures, in one run:
#   0. the CLI's start and a one-shot run against their floors: `sandboxio
#      version` against /bin/true, `sandboxio run --dsn local:// -- true`
#      against the bare bubblewrap line, in turn, RUNS times; with
#      BASELINE_CLI=/path/to/other/src/.libs/sandboxio (another build's
#      program, run with this build's library and plugins) its two lines
#      are measured in the same rounds, for a before/after (ONLY=0: this
#      section alone);
#   1. one-shot `sandboxio run --dsn local:// -- true` against bubblewrap
#      twice (the bare namespaces-and-mounts line, and the same plus what a
#      local sandbox also does: seccomp with the same filter, capabilities
#      dropped, new session, hostname, the /etc files, a read-only root),
#      unshare(1), and the CLI's own start (`sandboxio version`), run in turn
#      RUNS times (default 100): the medians of the per-round ratios to each
#      bubblewrap line are the figures;
#   2. exec into an already-open sandbox against a plain fork+exec, in turn;
#   3. stdout throughput: 1 GiB through `head -c 1G /dev/zero | cat`, against
#      the same pipeline on the host read the same way, in turn;
#   4. host memory per idle open sandbox;
#   5. 100 sandboxes open at once.
# Figures are ratios to print, not asserts: the machine's load moves them.
set -eu

b=$(cd "${1:-.}" && pwd)
for t in src/sandboxio plugins/local/sandboxio-local.la plugins/local/sandboxio-local-init \
         plugins/local/filter-gen bench/local/bench-local; do
    make -C "$b" -s "$t" >/dev/null
done
tmp=$(mktemp -d /tmp/sbx-bench-local-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# What init writes into each sandbox's /etc, and the seccomp filter it loads.
"$b/plugins/local/filter-gen" --raw >"$tmp/filter.bpf"
printf 'root:x:0:0:root:/work:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' >"$tmp/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$tmp/group"
printf '127.0.0.1 localhost sandbox\n::1 localhost sandbox\n' >"$tmp/hosts"
echo sandbox >"$tmp/hostname"
export SANDBOXIO_PLUGIN_PATH="$b/plugins/local/.libs"
export SANDBOXIO_LOCAL_INIT="$b/plugins/local/sandboxio-local-init"
# Run the real binaries, not libtool's wrapper scripts (a shell start each).
export LD_LIBRARY_PATH="$b/src/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cli="$b/src/.libs/sandboxio"
[ -x "$cli" ] || cli="$b/src/sandboxio"
bench="$b/bench/local/.libs/bench-local"
[ -x "$bench" ] || bench="$b/bench/local/bench-local"

echo "# machine: $(uname -srm), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), uid $(id -u)"
echo

bwrap_cmd="bwrap --unshare-all --die-with-parent --ro-bind /usr /usr --symlink usr/bin /bin \
--symlink usr/lib /lib --symlink usr/lib64 /lib64 --symlink usr/sbin /sbin --proc /proc \
--dev /dev --tmpfs /tmp --tmpfs /work --chdir /work true"
# bench-local opens "N<PATH" afresh for each run: bwrap reads the descriptors to their end.
bwrap_same="bwrap --unshare-all --die-with-parent --new-session --cap-drop ALL --hostname sandbox \
--seccomp 3 3<$tmp/filter.bpf --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib \
--symlink usr/lib64 /lib64 --symlink usr/sbin /sbin --ro-bind /etc/ld.so.cache /etc/ld.so.cache \
--ro-bind /etc/ld.so.conf /etc/ld.so.conf --ro-bind /etc/ld.so.conf.d /etc/ld.so.conf.d \
--ro-bind /etc/alternatives /etc/alternatives --file 4 /etc/passwd 4<$tmp/passwd \
--file 5 /etc/group 5<$tmp/group --file 6 /etc/hosts 6<$tmp/hosts \
--file 7 /etc/hostname 7<$tmp/hostname --proc /proc --dev /dev --tmpfs /tmp --tmpfs /work \
--chdir /work --remount-ro / true"
echo "## 0. the CLI's start and a one-shot run, against /bin/true and the bare bwrap line (bench-local compare ${RUNS:-100})"
set -- /bin/true "$bwrap_cmd" "$cli version"
[ -z "${BASELINE_CLI:-}" ] || set -- "$@" "$BASELINE_CLI version"
set -- "$@" "$cli run --dsn local:// -- true"
[ -z "${BASELINE_CLI:-}" ] || set -- "$@" "$BASELINE_CLI run --dsn local:// -- true"
"$bench" compare "${RUNS:-100}" "$@"
echo
# ONLY=0: this section alone (the CLI's own figures).
[ "${ONLY:-}" != 0 ] || exit 0

echo "## 1. one-shot run of true (bench-local compare ${RUNS:-100}: interleaved rounds)"
"$bench" compare "${RUNS:-100}" \
    "$bwrap_cmd" \
    "$bwrap_same" \
    "$cli run --dsn local:// -- true" \
    "unshare -Urpmnif true" \
    "$cli version"
echo

echo "## 2. exec into an open sandbox vs plain fork+exec, in turn (bench-local exec 500)"
"$bench" exec 500
echo

echo "## 3. stdout throughput (bench-local stdout 1073741824)"
"$bench" stdout 1073741824
echo

echo "## 4. host memory per idle sandbox (bench-local idle 50)"
"$bench" idle 50
echo

echo "## 5. 100 sandboxes open at once (bench-local many 100)"
"$bench" many 100
