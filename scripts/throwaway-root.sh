# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# Sourced by a root script that installs packages (check-debian-packages.sh):
# `throwaway_root "$0" "$@"` runs the script again in a mount namespace of
# its own and exits with its status, or returns (in that namespace, or
# where none can be made) for the script to go on. In the namespace:
#   - /usr, /etc and /var are overlays whose writes go to a tmpfs: what
#     dpkg, apt and ldconfig write there never reaches the machine, and
#     goes when the script ends, however it ends;
#   - /usr/local is an empty tmpfs: a source install of sandboxio (or
#     anything else there) cannot answer instead of the packages; the one
#     file of it a package build reads (the docker engine's seccomp
#     profile that scripts/install-deps.sh unpacks) is carried over.
# THROWAWAY_ROOT is "namespace" inside it, "machine" where none could be
# made (no unshare, no CAP_SYS_ADMIN: an unprivileged container; no
# overlayfs), and the script then works on the machine itself. The script
# must not exit 99 itself: that status says the namespace's mounts failed.
THROWAWAY_SECCOMP=/usr/local/share/sandboxio-build/docker-seccomp-default.json

throwaway_root() {
  if [ "${THROWAWAY_ROOT:-}" = namespace ] && [ -n "${THROWAWAY_DIR:-}" ]; then
    throwaway_mount
    return 0
  fi
  THROWAWAY_ROOT=machine
  if command -v unshare >/dev/null 2>&1 && unshare --mount --propagation private true 2>/dev/null; then
    THROWAWAY_DIR=$(mktemp -d /tmp/throwaway-root.XXXXXX)
    rc=0
    THROWAWAY_ROOT=namespace THROWAWAY_DIR=$THROWAWAY_DIR \
      unshare --mount --propagation private sh "$@" || rc=$?
    # Only the namespace's mounts were on it: here it is an empty dir.
    rmdir "$THROWAWAY_DIR" 2>/dev/null || true
    [ $rc -eq 99 ] || exit $rc
    echo "throwaway-root: the namespace's mounts failed (above): working on this machine"
    return 0
  fi
  echo "throwaway-root: no mount namespace here (unshare --mount failed): working on this machine"
}

# A mount that fails leaves the machine as it was (the namespace's mounts
# are its own): 99 tells throwaway_root to go on without them.
throwaway_fail() {
  echo "throwaway-root: $*"
  exit 99
}

throwaway_mount() {
  d=$THROWAWAY_DIR
  mount -t tmpfs -o mode=0700 throwaway-root "$d" || throwaway_fail "no tmpfs on $d"
  for t in usr etc var; do
    mkdir "$d/$t.up" "$d/$t.work"
    mount -t overlay "throwaway-$t" -o "lowerdir=/$t,upperdir=$d/$t.up,workdir=$d/$t.work" "/$t" ||
      throwaway_fail "no overlay on /$t"
  done
  [ ! -s "$THROWAWAY_SECCOMP" ] || cp "$THROWAWAY_SECCOMP" "$d/seccomp.json"
  mount -t tmpfs -o mode=0755 throwaway-usr-local /usr/local ||
    throwaway_fail "no tmpfs on /usr/local"
  # Debian's empty /usr/local hierarchy (base-files' postinst makes it).
  for s in bin etc games include lib man sbin share src; do mkdir -p "/usr/local/$s"; done
  if [ -s "$d/seccomp.json" ]; then
    mkdir -p "${THROWAWAY_SECCOMP%/*}"
    cp "$d/seccomp.json" "$THROWAWAY_SECCOMP"
  fi
}
