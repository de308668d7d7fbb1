#!/bin/sh
# Install what building and testing sandboxio needs on Debian 12 (bookworm).
# Runs apt-get as root, through sudo when not root.
set -eu
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
PACKAGES="
  build-essential autoconf automake libtool libltdl-dev pkg-config
  check libcurl4-openssl-dev libjson-c-dev libyaml-dev libseccomp-dev libarchive-dev
  python3 util-linux procps iproute2 strace groff-base valgrind
  docker.io busybox-static bubblewrap uidmap
  clang clang-tools libclang-rt-dev cppcheck abigail-tools
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
