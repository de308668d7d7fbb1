#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A profiles file another user could change is refused (SBX_E1057, exit
# 120) before it is read: writable by group or others, in a directory (or
# above one) writable by them, or owned by another user. A sticky
# directory such as /tmp may be writable by all.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
unset SANDBOXIO_PROFILE

umask 022
mkdir -p "$TMP/a/b"
chmod 0755 "$TMP" "$TMP/a" "$TMP/a/b"
f="$TMP/a/b/profiles.yaml"
printf 'unsandboxed: {dsn: "fake://"}\n' >"$f"

refused() { # refused WHAT: `profiles` and `run --profile` both refuse, naming WHAT
    SANDBOXIO_PROFILE_PATH="$f" sbx profiles
    expect_error 120 SBX_E1057
    expect_stderr_has "$1"
    SANDBOXIO_PROFILE_PATH="$f" sbx run --profile unsandboxed -- true
    expect_error 120 SBX_E1057
    sbx profiles check "$f"
    expect_error 120 SBX_E1057
}
accepted() {
    SANDBOXIO_PROFILE_PATH="$f" sbx profiles
    expect_status 0
    expect_stdout_has unsandboxed
}

accepted
chmod 0666 "$f"; refused "the file is writable by others (mode 0666)"
chmod 0620 "$f"; refused "the file is writable by its group (mode 0620)"
chmod 0644 "$f"
chmod 0777 "$TMP/a/b"; refused "$TMP/a/b is writable by others"
chmod 0775 "$TMP/a/b"; refused "$TMP/a/b is writable by its group"
chmod 0755 "$TMP/a/b"
chmod 0777 "$TMP/a"; refused "$TMP/a is writable by others"
# Sticky, as /tmp is: no one else can replace what is in it.
chmod 1777 "$TMP/a"; accepted
chmod 0755 "$TMP/a"
# Through a link, the directories of the file it leads to count.
ln -s "$f" "$TMP/link.yaml"
chmod 0777 "$TMP/a/b"
SANDBOXIO_PROFILE_PATH="$TMP/link.yaml" sbx profiles
expect_error 120 SBX_E1057
chmod 0755 "$TMP/a/b"
# The default search path is checked too.
mkdir -p "$TMP/xdg/sandboxio"
cp "$f" "$TMP/xdg/sandboxio/profiles.yaml"
chmod 0666 "$TMP/xdg/sandboxio/profiles.yaml"
(unset SANDBOXIO_PROFILE_PATH; XDG_CONFIG_HOME="$TMP/xdg" "$SBX" profiles) >"$OUT" 2>"$ERR" && status=0 || status=$?
expect_error 120 SBX_E1057

# Owned by another user: only root can make that here.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
    chown nobody "$f"; refused "the file is owned by uid $(id -u nobody)"
    chown 0 "$f"
    chown nobody "$TMP/a/b"; refused "$TMP/a/b is owned by uid $(id -u nobody)"
    chown 0 "$TMP/a/b"
    accepted
else
    echo "not root: the cases of a file owned by another user are not run"
fi
echo ok
