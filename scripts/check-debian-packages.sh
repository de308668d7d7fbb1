#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Debian packages, proved from the packages alone: build them
# (dpkg-buildpackage -us -uc -b) from a copy of the tree, run lintian, install
# them with apt-get on this machine, use the CLI, the local backend and the
# contract suite, remove the docker plugin's package and check that the
# error names it, build the out-of-tree example plugin (examples/plugin-hello)
# against the installed -dev packages and contract-test it, build the REST
# example (examples/plugin-rest) on the plugin kit they hold, then purge
# everything and check that nothing of sandboxio is left in /usr, /etc, /var.
#
# Needs root (it installs packages). It runs in a mount namespace of its
# own where /usr, /etc and /var are overlays on a tmpfs (whatever dpkg and
# apt write there goes with the namespace: the machine is left exactly as
# it was) and /usr/local is an empty tmpfs: a source install there (the
# README's first command makes one) can neither answer instead of the
# packages nor be touched by them. Where no such namespace can be made
# (no unshare, a container without CAP_SYS_ADMIN), it installs on the
# machine itself, which must then hold no sandboxio, from source or from
# packages: it leaves the machine as it found it, and exits 77 (SKIP) when
# it cannot. scripts/install-deps.sh installs what it needs (dpkg-dev,
# debhelper, lintian).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "check-debian-packages: $*"; }
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: check-debian-packages: $*"; exit 77; }

[ "$(id -u)" -eq 0 ] || skip "needs root to install packages"
for t in dpkg-buildpackage dh lintian apt-get; do
  command -v "$t" >/dev/null 2>&1 || skip "no $t (scripts/install-deps.sh installs it)"
done
. "$top/scripts/throwaway-root.sh"
throwaway_root "$0" "$@"
# A source install would answer instead of the packages.
for f in /usr/local/bin/sandboxio /usr/local/lib/libsandboxio.so.0 \
    /usr/local/lib/pkgconfig/sandboxio-plugin.pc /usr/local/include/sandboxio; do
  [ ! -e "$f" ] || skip "a source install of sandboxio is on this machine ($f): make uninstall first"
done
# A package per backend of configure.ac (scripts/backends.sh).
ours="libsandboxio0 libsandboxio-dev sandboxio $("$top/scripts/backends.sh" | sed 's/^/sandboxio-plugin-/' | tr '\n' ' ')sandboxio-plugin-dev"
installed() { dpkg-query -W -f='${Package} ${db:Status-Status}\n' "$@" 2>/dev/null | awk '$2 != "not-installed" {print $1}'; }
pkgs() { installed | sort; }
# shellcheck disable=SC2086 # $ours is a list of names
ours_installed() { installed $ours "$@"; }
[ -z "$(ours_installed 'sandboxio*')" ] || skip "sandboxio packages are installed already: $(ours_installed 'sandboxio*' | tr '\n' ' ')"

# What of sandboxio the file system holds before (the source trees aside).
leftovers() { find /usr /etc /var -path /var/tmp -prune -o -path /var/cache/apt/archives -prune -o \
  \( -name '*sandboxio*' -o -name 'sbx_*.3*' \) -print 2>/dev/null | sort; }
before_files=$(leftovers)
before_pkgs=$(pkgs)

work=$(mktemp -d /tmp/check-debian-packages.XXXXXX)
chmod 0755 "$work"   # apt's download user reads the .debs from here
hello_so=
cleanup() {
  rc=$?
  [ -z "$hello_so" ] || rm -f "$hello_so"
  # Whatever this script installed, it removes: our packages and the
  # dependencies apt pulled in for them.
  if [ -f "$work/pkgs.before" ]; then
    new=$(pkgs | comm -13 "$work/pkgs.before" -)
    # shellcheck disable=SC2086
    [ -z "$new" ] || DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $new >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
  exit $rc
}
trap cleanup EXIT
trap 'exit 1' INT TERM
printf '%s\n' "$before_pkgs" >"$work/pkgs.before"

# 1. Build, out of a copy: dpkg-buildpackage writes into the parent directory
# and debian/ of the tree it builds in. The copy is what git knows (committed
# or not, ignored files left out), or without git the tree but its build
# directories.
ver=$(sed -n '1s/^sandboxio (\([^)]*\)).*/\1/p' "$top/debian/changelog")
src="$work/sandboxio-$ver"
mkdir -p "$src"
if command -v git >/dev/null 2>&1 && git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$top" ls-files -z --cached --others --exclude-standard |
    (cd "$top" && tar -c --null -T -) | tar -x -C "$src"
else
  tar -C "$top" -c --exclude='./build*' --exclude=./autom4te.cache --exclude=./.git . | tar -x -C "$src"
fi
# Debian ships the engine's seccomp profile in golang-github-docker-docker-dev
# (close to 1 GB of Go); scripts/install-deps.sh unpacks its one file instead,
# which this build profile tells the build dependencies.
profile=
if ! dpkg-query -W -f='${db:Status-Status}' golang-github-docker-docker-dev 2>/dev/null | grep -qx installed &&
   [ -s /usr/local/share/sandboxio-build/docker-seccomp-default.json ]; then
  profile=-Ppkg.sandboxio.seccomp-base-local
fi
say "dpkg-buildpackage -us -uc -b $profile"
t0=$(date +%s)
# nocheck: scripts/test.sh runs the whole test suite on this tree already.
(cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
   dpkg-buildpackage -us -uc -b $profile >"$work/build.log" 2>&1) || {
  tail -n 60 "$work/build.log"; fail "dpkg-buildpackage"; }
say "built in $(( $(date +%s) - t0 ))s"

# 2. lintian: no error, no warning that an override does not explain.
say "lintian"
lintian --fail-on error,warning "$work"/sandboxio_"$ver"_*.changes >"$work/lintian.log" 2>&1 || {
  cat "$work/lintian.log"; fail "lintian"; }
for o in "$top"/debian/*.lintian-overrides; do
  [ -e "$o" ] || continue
  # Every override says why, in the comment right above it.
  awk -v f="$o" '/^#/ {c=1; next} /^[^#[:space:]]/ { if (!c) { print "FAIL: " f ": override without a reason: " $0; bad=1 } ; next} {c=0} END {exit bad}' "$o" ||
    exit 1
done
# shlibs: the plugins that speak HTTP, and only they, pull libcurl.
deb() { ls "$work"/"$1"_"$ver"_*.deb; }
for p in $("$top/scripts/backends.sh" --http | sed 's/^/sandboxio-plugin-/'); do
  dpkg-deb -f "$(deb $p)" Depends | grep -q libcurl || fail "$p does not depend on libcurl"
done
for p in libsandboxio0 sandboxio $("$top/scripts/backends.sh" --no-http | sed 's/^/sandboxio-plugin-/'); do
  ! dpkg-deb -f "$(deb $p)" Depends | grep -q libcurl || fail "$p depends on libcurl"
done

# 3. Install from the files, as a user would.
say "apt-get install the packages"
debs=
for p in $ours; do debs="$debs $(deb "$p")"; done
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $debs >"$work/install.log" 2>&1 || {
  cat "$work/install.log"; fail "apt-get install"; }

unset SANDBOXIO_PLUGIN_PATH SANDBOXIO_DSN
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
plugindir=/usr/lib/$multiarch/sandboxio/plugins
sbx=/usr/bin/sandboxio
cd "$work"

say "sandboxio plugins"
$sbx plugins >plugins.out 2>&1 || { cat plugins.out; fail "sandboxio plugins"; }
cat plugins.out
for s in local docker; do
  grep -Eq "^$s +ok .*$plugindir/sandboxio-$s\.so" plugins.out || fail "plugin $s not listed as ok from $plugindir"
done
! grep -q '^fake ' plugins.out || fail "the fake backend (no isolation) was shipped"

say "sandboxio run -- true"
$sbx run -- true || fail "sandboxio run -- true exited $?"

say "sandboxio contract local://"
$sbx contract local:// >contract-local.out 2>&1 || { cat contract-local.out; fail "contract local://"; }
tail -n 1 contract-local.out

# 4. Without the docker plugin's package, docker:// names it.
say "remove sandboxio-plugin-docker"
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq sandboxio-plugin-docker >/dev/null 2>&1 || fail "apt-get purge sandboxio-plugin-docker"
rc=0; $sbx run --dsn docker:// -- true >docker.out 2>&1 || rc=$?
cat docker.out
[ $rc -eq 121 ] || fail "docker:// without its plugin exited $rc, expected 121 (SBX_E2001)"
grep -q 'SBX_E2001' docker.out || fail "docker:// without its plugin: not SBX_E2001"
grep -q 'the package sandboxio-plugin-docker provides it' docker.out || fail "the error does not name sandboxio-plugin-docker"

# 5. The out-of-tree example, from the installed -dev packages only.
say "examples/plugin-hello against the packages"
cp -R "$top/examples/plugin-hello" "$work/hello"
[ "$(pkg-config --variable=plugindir sandboxio-plugin)" = "$plugindir" ] || fail "sandboxio-plugin.pc's plugindir is not $plugindir"
dpkg -S "/usr/lib/$multiarch/pkgconfig/sandboxio-plugin.pc" | grep -q '^sandboxio-plugin-dev:' || fail "sandboxio-plugin.pc is not sandboxio-plugin-dev's"
hello_so=$plugindir/sandboxio-hello.so
(cd "$work/hello" && env -u PKG_CONFIG_PATH -u CPATH -u C_INCLUDE_PATH make -s CFLAGS='-O2 -Werror' >make.out 2>&1 &&
  make -s install >>make.out 2>&1) || {
  cat "$work/hello/make.out"; fail "examples/plugin-hello did not build or install"; }
[ -f "$hello_so" ] || fail "make install put no $hello_so"
$sbx plugins | grep -Eq "^hello +ok .*$hello_so" || fail "sandboxio plugins does not list hello"
$sbx contract hello:// >contract-hello.out 2>&1 || { cat contract-hello.out; fail "contract hello://"; }
tail -n 1 contract-hello.out
grep -Eq '^[1-9][0-9]* passed, 0 failed' contract-hello.out || fail "contract hello:// passed nothing"
(cd "$work/hello" && make -s uninstall) || fail "make uninstall of plugin-hello"
[ ! -e "$hello_so" ] || fail "make uninstall left $hello_so"
hello_so=

# The REST example builds on the plugin kit the -dev package holds, and
# still exports only its entry point.
say "examples/plugin-rest against the packages (the plugin kit)"
dpkg -S "/usr/lib/$multiarch/libsandboxio-plugin-kit.a" | grep -q '^sandboxio-plugin-dev:' ||
  fail "libsandboxio-plugin-kit.a is not sandboxio-plugin-dev's"
cp -R "$top/examples/plugin-rest" "$work/rest"
(cd "$work/rest" && env -u PKG_CONFIG_PATH -u CPATH -u C_INCLUDE_PATH make -s CFLAGS='-O2 -Werror' >make.out 2>&1) || {
  cat "$work/rest/make.out"; fail "examples/plugin-rest did not build against the packages"; }
[ "$(nm -D --defined-only "$work/rest/sandboxio-restdemo.so" | awk '{print $3}')" = sandboxio_plugin_v1 ] ||
  fail "sandboxio-restdemo.so exports more than its entry point"
SANDBOXIO_PLUGIN_PATH="$work/rest" $sbx plugins | grep -Eq "^restdemo +ok " || fail "sandboxio plugins does not list restdemo"

# 6. Purge: nothing of sandboxio is left.
say "purge"
for p in $(ours_installed); do dpkg -L "$p" >>"$work/files.list"; done
new=$(pkgs | comm -13 "$work/pkgs.before" -)
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $new >/dev/null 2>&1 || fail "apt-get purge $new"
[ -z "$(ours_installed)" ] || fail "still installed: $(ours_installed | tr '\n' ' ')"
left=
while read -r f; do
  # Directories other packages share (/usr/lib/x86_64-linux-gnu...) stay.
  [ -d "$f" ] && case $f in *sandboxio*) ;; *) continue ;; esac
  [ ! -e "$f" ] || left="$left $f"
done <"$work/files.list"
[ -z "$left" ] || fail "left after purge:$left"
after_files=$(leftovers)
[ "$before_files" = "$after_files" ] || {
  printf 'before:\n%s\nafter:\n%s\n' "$before_files" "$after_files"; fail "sandboxio files left in /usr, /etc or /var"; }
[ "$before_pkgs" = "$(pkgs)" ] || fail "the installed packages differ from before"
echo "PASS: check-debian-packages: built, lintian-clean, installed, used, hello plugin built out of tree, purged clean"
