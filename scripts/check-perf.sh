#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The performance gate, in counts that do not move with the machine's load:
#   1. the shared objects `sandboxio version` and `sandboxio run -- true`
#      (local) map, vdso and loader aside, against the budget in
#      tests/gates/perf-objects-budget (edited by hand, on purpose);
#   2. the instructions callgrind counts for `sandboxio version`, for the
#      client process of `run -- true` on local (not the sandbox's init,
#      which callgrind does not follow: --trace-children=no), making its
#      sandbox and taking a ready one (run-ready-local), and for one
#      sbx_exec into an open local sandbox (tests/gates/perf_exec.c, counted
#      with --toggle-collect), against tests/gates/perf-callgrind-baseline:
#      more than 10 % over fails, naming the figure.
# Counts depend on the compiler, its flags, glibc, valgrind and whether the
# gate runs as root: a baseline line holds the flavour it was measured in,
# and a build of another flavour skips the callgrind figures, saying so
# (the sanitizer build always does).
# Every program runs in a fixed environment (env -i) so counts repeat.
#
# Usage: check-perf.sh BUILDDIR [--update] [--baseline FILE] [--budget FILE]
#                      [--preload SO]
#   --update    record the callgrind figures of this flavour in the baseline
#               (`make perf-baseline`; commit it with the reason)
#   --preload   put SO in front of every measured program (LD_PRELOAD): the
#               gate's own test makes it turn red that way
# Exit: 0 pass (figures skipped are printed as SKIP), 1 a figure over its
# budget or baseline, 2 the gate could not run.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: check-perf.sh BUILDDIR [--update] [--baseline FILE] [--budget FILE] [--preload SO]" >&2; exit 2; }
b=$(cd "$1" && pwd); shift
update=0 preload=
baseline="$top/tests/gates/perf-callgrind-baseline"
budget="$top/tests/gates/perf-objects-budget"
while [ $# -gt 0 ]; do
  case $1 in
    --update) update=1 ;;
    --baseline) baseline=$2; shift ;;
    --budget) budget=$2; shift ;;
    --preload) preload=$2; shift ;;
    *) echo "check-perf: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

cli="$b/src/.libs/sandboxio"
execprog="$b/tests/gates/.libs/perf_exec"
[ -x "$execprog" ] || execprog="$b/tests/gates/perf_exec"
[ -x "$cli" ] || { echo "check-perf: no $cli (make first)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/sbx-perf-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/home" "$tmp/ld" "$tmp/cg"
failed=0

# The one environment every measured program runs in. Called in the
# background only: the exec keeps the pid, which names the output files.
# `run` makes its sandbox (SANDBOXIO_RUN_READY=0): whether a ready one is
# there would change the count, and it would leave one behind; the
# run-ready-local figure sets $ready_env to take one of a runtime directory
# of its own.
ready_env=
fixed_env() {
  # shellcheck disable=SC2086 # $ready_env: NAME=VALUE words, no spaces
  exec env -i LANG=C LC_ALL=C PATH=/usr/bin:/bin HOME="$tmp/home" TMPDIR=/tmp SANDBOXIO_RUN_READY=0 \
    $ready_env \
    LD_LIBRARY_PATH="$b/src/.libs" SANDBOXIO_PLUGIN_PATH="$b/plugins/local/.libs" \
    SANDBOXIO_LOCAL_INIT="$b/plugins/local/sandboxio-local-init" \
    ${ASAN_OPTIONS+ASAN_OPTIONS="$ASAN_OPTIONS"} ${UBSAN_OPTIONS+UBSAN_OPTIONS="$UBSAN_OPTIONS"} \
    ${LSAN_OPTIONS+LSAN_OPTIONS="$LSAN_OPTIONS"} ${preload:+LD_PRELOAD="$preload"} "$@"
}

# Can local:// run here? (the plugin built, and user namespaces allowed)
local_why=
if [ ! -e "$b/plugins/local/.libs/sandboxio-local.so" ]; then
  local_why="the local backend is not built (--disable-local)"
elif ! unshare -U true 2>/dev/null; then
  local_why="this machine cannot create user namespaces"
fi

# ---- 1. shared objects --------------------------------------------------
# objects NAME ARGS...: how many objects the process maps, and which. Two
# kinds are counted apart, with what they need: the NSS modules glibc loads
# for a user lookup (which ones is /etc/nsswitch.conf's choice, not the
# program's: the local backend looks up root's sandbox ids as root), and
# the sanitizers' runtimes of a sanitizer build.
objects() {
  name=$1; shift
  rm -f "$tmp/ld/"*
  fixed_env LD_DEBUG=files LD_DEBUG_OUTPUT="$tmp/ld/ld" "$@" >"$tmp/out" 2>&1 &
  pid=$!
  wait $pid || { echo "FAIL: objects $name: the program failed:"; cat "$tmp/out"; failed=1; return 1; }
  awk '
    /file=.*generating link map/ { f = $0; sub(/.*file=/, "", f); sub(/ .*/, "", f); mapped[f] = 1; order[++n] = f }
    # Only a dependency goes with its parent: what a library dlopens is the
    # program'"'"'s own (ASan intercepts dlopen, so every plugin would seem
    # loaded by libasan).
    /file=.*needed by/ {
      f = $0; sub(/.*file=/, "", f); sub(/ .*/, "", f)
      p = $0; sub(/.*needed by /, "", p); sub(/ .*/, "", p)
      if (!(f in parent)) parent[f] = p
    }
    function base(s) { sub(/.*\//, "", s); return s }
    END {
      for (i = 1; i <= n; i++)
        if (base(order[i]) ~ /^lib(nss_|asan|ubsan|lsan|tsan)/) isnss[base(order[i])] = 1
      for (r = 0; r < n; r++)
        for (i = 1; i <= n; i++) if (base(parent[order[i]]) in isnss) isnss[base(order[i])] = 1
      for (i = 1; i <= n; i++) {
        f = base(order[i])
        if (f in isnss) ns = ns " " f; else { c++; own = own " " f }
      }
      printf "%d%s\n%s\n", c, own, ns
    }' "$tmp/ld/ld.$pid" >"$tmp/objects"
  count=$(sed -n '1s/ .*//p' "$tmp/objects")
  list=$(sed -n '1s/^[0-9]*//p' "$tmp/objects")
  nsslist=$(sed -n '2p' "$tmp/objects")
  want=$(sed -n "s/^$name  *\([0-9][0-9]*\).*/\1/p" "$budget")
  [ -n "$want" ] || { echo "FAIL: objects $name: no budget in $budget"; failed=1; return 1; }
  if [ "$count" -gt "$want" ]; then
    echo "FAIL: objects $name: $count shared objects mapped, budget $want ($budget):$list${nsslist:+ (apart:$nsslist)}"
    failed=1
  else
    echo "PASS: objects $name: $count of $want:$list${nsslist:+ (apart:$nsslist)}"
  fi
}

if [ $update -eq 0 ]; then
  objects version "$cli" version
  if [ -n "$local_why" ]; then
    echo "SKIP: objects run-local ($local_why)"
  else
    objects run-local "$cli" run --dsn local:// -- true
  fi
fi

# ---- 2. callgrind -------------------------------------------------------
strip_ccache() { sed 's/^ccache  *//'; }
mk() { sed -n "s/^$1 = //p" "$b/Makefile" | head -n 1; }
san=$(mk SAN_CFLAGS)
if [ -n "$san" ]; then
  echo "SKIP: callgrind figures (a sanitizer build: valgrind does not run ASan programs, and its counts would not be the release build's; the normal build measures them)"
  exit $failed
fi
command -v valgrind >/dev/null 2>&1 || {
  echo "SKIP: callgrind figures (valgrind is not installed: scripts/install-deps.sh installs it)"
  exit $failed
}
cc=$(mk CC | strip_ccache)
ccv=$($cc -dumpfullversion 2>/dev/null || $cc -dumpversion)
glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | tr ' ' '-')
# root or user: the local backend's open takes other paths as root.
who=user; [ "$(id -u)" -ne 0 ] || who=root
flavour=$(printf '%s-%s|%s|%s|%s|%s|%s' "${cc##*/}" "$ccv" "$(mk CFLAGS)" "$glibc" \
  "$(valgrind --version)" "$(uname -m)" "$who" | tr ' ' '_')

# instructions NAME [TOGGLE] ARGS...: the count of the process itself.
instructions() {
  name=$1 toggle=$2; shift 2
  rm -f "$tmp/cg/"*
  fixed_env valgrind --tool=callgrind --trace-children=no ${toggle:+--toggle-collect=$toggle} \
    --callgrind-out-file="$tmp/cg/cg.%p" "$@" >"$tmp/out" 2>&1 &
  pid=$!
  wait $pid || { echo "FAIL: callgrind $name: the program failed:"; cat "$tmp/out"; return 1; }
  sed -n 's/^summary: //p' "$tmp/cg/cg.$pid"
}

# ready_has GLOB: a file of the ready directory matches; ready_wait GLOB:
# wait (30 s at most) until one does; ready_gone GLOB: until none does.
ready_has() { ls -d "$tmp/run/ready/"$1 >/dev/null 2>&1; }
ready_wait() { for _ in $(seq 300); do ready_has "$1" && return 0; sleep 0.1; done; return 1; }
ready_gone() { for _ in $(seq 300); do ready_has "$1" || return 0; sleep 0.1; done; return 1; }

# The client of a `run -- true` that takes a ready sandbox: one run leaves
# it (not counted), the next takes it; then gc, and nothing is left.
ready_instructions() {
  rm -rf "$tmp/run"
  ready_env="SANDBOXIO_RUN_READY=1 SANDBOXIO_LOCAL_RUNDIR=$tmp/run SANDBOXIO_RUN_READY_TTL=30s"
  (fixed_env "$cli" run --dsn local:// -- true) >"$tmp/out" 2>&1 &&
    ready_wait 'r.*' && ready_gone 'p.*' ||
    { echo "FAIL: callgrind run-ready-local: no ready sandbox was left:"; cat "$tmp/out"; ready_env=; return 1; }
  n=$(instructions run-ready-local "" "$cli" run --dsn local:// -- true)
  # The background process (followed by valgrind, slowly) makes the next one.
  ready_gone 'p.*' || true
  (fixed_env "$cli" gc local://) >/dev/null 2>&1 || true
  ready_env=
  echo "$n"
}

figures="version run-local exec-local run-ready-local"
measure() {
  case $1 in
    version) instructions version "" "$cli" version ;;
    run-local) instructions run-local "" "$cli" run --dsn local:// -- true ;;
    run-ready-local) ready_instructions ;;
    exec-local) instructions exec-local measured_exec "$execprog" local:// ;;
  esac
}

if [ $update -eq 1 ]; then
  [ -z "$local_why" ] || { echo "check-perf: cannot record the local figures: $local_why" >&2; exit 2; }
  [ -x "$execprog" ] || { echo "check-perf: no $execprog (make check builds it)" >&2; exit 2; }
  grep -v "^$flavour " "$baseline" 2>/dev/null >"$tmp/new" || true
  for f in $figures; do
    n=$(measure "$f") && [ -n "$n" ] || { echo "check-perf: $f could not be measured" >&2; exit 2; }
    echo "$flavour $f $n" >>"$tmp/new"
    echo "recorded: callgrind $f $n instructions ($flavour)"
  done
  cp "$tmp/new" "$baseline"
  exit 0
fi

if ! grep -q "^$flavour " "$baseline" 2>/dev/null; then
  echo "SKIP: callgrind figures (no baseline for this build's flavour $flavour in $baseline: \`make perf-baseline\` records one)"
  exit $failed
fi
for f in $figures; do
  case $f in
    *-local) if [ -n "$local_why" ]; then echo "SKIP: callgrind $f ($local_why)"; continue; fi ;;
  esac
  base=$(sed -n "s/^$flavour $f \([0-9][0-9]*\)$/\1/p" "$baseline")
  [ -n "$base" ] || { echo "FAIL: callgrind $f: no baseline for it in $baseline"; failed=1; continue; }
  n=$(measure "$f") && [ -n "$n" ] || { failed=1; continue; }
  pct=$(( (n - base) * 100 / base ))
  if [ $((n * 10)) -gt $((base * 11)) ]; then
    echo "FAIL: callgrind $f: $n instructions, $pct % over the baseline $base (more than 10 %; $baseline)"
    failed=1
  else
    echo "PASS: callgrind $f: $n instructions, baseline $base ($pct %)"
  fi
done
exit $failed
