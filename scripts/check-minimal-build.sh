#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The core, the CLI and the fake need none of the backends' libraries:
# configure with every optional backend left out, through a pkg-config that
# refuses to know libcurl, libarchive and libseccomp (as on a machine
# without their dev packages), then build and `make check` in
# build-minimal/. Also fails if configure asked for libcurl or libarchive
# at all, if anything built links one of the three, or if the library or a
# plugin links libyaml (only the CLI's YAML reader, sandboxio-yaml.so, does),
# or if the sandboxio program links more than every command needs
# (src/cli/parts.h).
#
# Run from a tree where autoreconf has run (scripts/test.sh does that).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir="$top/build-minimal"
jobs=$(nproc 2>/dev/null || echo 2)
refused='libcurl libarchive libseccomp'

real=$(command -v pkg-config) || { echo "check-minimal-build: no pkg-config" >&2; exit 1; }
rm -rf "$dir"; mkdir -p "$dir/wrap"
# The wrapper answers "not found" for any query that names a refused module
# (pkg-config's own exit status for a missing one) and passes the rest on.
cat >"$dir/wrap/pkg-config" <<EOF
#!/bin/sh
for a in "\$@"; do
  for m in $refused; do
    case \$a in \$m|\$m\ *) echo "Package \$m was not found (hidden by check-minimal-build)" >&2; exit 1 ;; esac
  done
done
exec "$real" "\$@"
EOF
chmod +x "$dir/wrap/pkg-config"

# Every backend of configure.ac left out. The docker backend's seccomp base
# profile is named missing: without the docker backend configure must not
# look for it.
backends=$("$top/scripts/backends.sh")
disable=$(for b in $backends; do printf -- '--disable-%s ' "$b"; done)
echo "check-minimal-build: configure $disable, pkg-config hides: $refused, no docker seccomp base"
# shellcheck disable=SC2086 # $disable is a list of options
(cd "$dir" && PKG_CONFIG="$dir/wrap/pkg-config" "$top/configure" -q \
    --enable-werror $disable --with-docker-seccomp-base=/nonexistent/default.json) || {
  echo "FAIL: configure needs a library the core, CLI and fake must not need"
  tail -n 30 "$dir/config.log"; exit 1
}
# Asked for at all is already wrong for libcurl and libarchive (only the
# docker and HTTP plugins use them); libseccomp may be asked for, optionally,
# by two tests (the wrapper said no, and configure carried on).
if grep -E '^configure:[0-9]+: checking for (libcurl|libarchive)' "$dir/config.log"; then
  echo "FAIL: configure checked for a backend's library with every backend left out"; exit 1
fi
for b in $backends; do
  grep -q "^SBX_ENABLE_$(echo "$b" | tr a-z A-Z)_TRUE=.#" "$dir/config.log" ||
    { echo "FAIL: the $b backend is still enabled"; exit 1; }
done
grep -q '^SBX_NEED_HTTP_TRUE=.#' "$dir/config.log" || {
  echo "FAIL: sbxu's HTTP library is still enabled"; exit 1
}

echo "check-minimal-build: make"
make -C "$dir" -s -j"$jobs" >"$dir/make.out" 2>&1 || { tail -n 40 "$dir/make.out"; exit 1; }
for m in $backends; do
  if [ -e "$dir/plugins/$m/.libs/sandboxio-$m.so" ]; then
    echo "FAIL: the $m plugin was built though it was disabled"; exit 1
  fi
done
[ -e "$dir/plugins/fake/.libs/sandboxio-fake.so" ] || { echo "FAIL: no fake plugin built"; exit 1; }

echo "check-minimal-build: make check"
make -C "$dir" -s -j"$jobs" check >"$dir/check.out" 2>&1 || {
  grep -E '^(FAIL|ERROR)' "$dir/check.out"; find "$dir" -name '*.log' ! -name config.log \
    ! -name test-suite.log -exec grep -l -E '^(FAIL|ERROR)' {} + | while read -r log; do
      echo "----- $log"; tail -n 40 "$log"; done
  exit 1
}
grep -E '^# (TOTAL|PASS|SKIP|FAIL|ERROR):' "$dir/check.out"

# Nothing built (library, CLI, plugin, test program) needs a refused library.
bad=0
for f in $(find "$dir" -path "$dir/wrap" -prune -o -type f \( -name '*.so' -o -perm -u+x \) -print); do
  pat='libcurl|libarchive|libseccomp'
  case $f in
    */sandboxio-yaml.so) ;;
    *.so) pat="$pat|libyaml" ;;
    */src/.libs/sandboxio) pat="$pat|libyaml|libmicrohttpd" ;;
  esac
  readelf -d "$f" 2>/dev/null | grep NEEDED | grep -E "$pat" >/dev/null || continue
  echo "FAIL: $f needs:"; readelf -d "$f" | grep NEEDED; bad=1
done
[ $bad -eq 0 ] || exit 1
echo "PASS: core, CLI and fake build and pass make check without libcurl, libarchive, libseccomp; only the CLI's YAML reader links libyaml"
