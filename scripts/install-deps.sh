#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Install what building and testing sandboxio needs on Debian 12 (bookworm).
# Runs apt-get as root, through sudo when not root.
set -eu
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
PACKAGES="
  build-essential autoconf automake libtool libltdl-dev pkg-config
  check libcurl4-openssl-dev libjson-c-dev libyaml-dev libseccomp-dev libarchive-dev
  libmicrohttpd-dev libevent-dev openssl clang
  python3 util-linux procps iproute2 strace groff-base valgrind tmux
  docker.io busybox-static bubblewrap uidmap slirp4netns
  clang clang-tools libclang-rt-dev cppcheck abigail-tools
  dpkg-dev debhelper lintian mkdocs
"
missing=
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "install-deps: installing:$missing"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  # shellcheck disable=SC2086
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi

# The docker engine's default seccomp profile, which the docker backend's
# profile is built from (configure's --with-docker-seccomp-base). Debian
# ships it in golang-github-docker-docker-dev, of the same version as
# docker.io, whose Go dependencies are close to 1 GB: only its one data file
# is unpacked, from the package apt downloads.
SECCOMP_BASE=/usr/local/share/sandboxio-build/docker-seccomp-default.json
SECCOMP_MEMBER=./usr/share/gocode/src/github.com/docker/docker/profiles/seccomp/default.json
if [ ! -s "$SECCOMP_BASE" ]; then
  echo "install-deps: unpacking the engine's default seccomp profile to $SECCOMP_BASE"
  dl=$(mktemp -d)
  trap 'rm -rf "$dl"' EXIT
  chmod 0755 "$dl"    # apt's download user must reach it
  (cd "$dl" && apt-get download -qq golang-github-docker-docker-dev) || {
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    (cd "$dl" && apt-get download -qq golang-github-docker-docker-dev)
  }
  dpkg-deb --fsys-tarfile "$dl"/golang-github-docker-docker-dev_*.deb |
    tar -xO "$SECCOMP_MEMBER" >"$dl/default.json"
  [ -s "$dl/default.json" ] || { echo "install-deps: no $SECCOMP_MEMBER in the package" >&2; exit 1; }
  $SUDO install -D -m 0644 "$dl/default.json" "$SECCOMP_BASE"
fi
