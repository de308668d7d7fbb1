#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The escape battery's probes (plugins/local/tests/escape-probe.c), run by
# `sandboxio run` in the ready sandbox it takes, fail with the errnos
# test_local_escape asserts of a sandbox made for its command, and with the
# same as in a `run --fresh`: read-only root, /usr and /etc, no host pid,
# no mount, module, namespace, bpf, keyring, userfaultfd, perf, TIOCSTI,
# fanotify or memfd_secret, no route off the loopback.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
. "$SBX_TEST_SRCDIR/plugins/local/tests/ready-lib.sh"

probe="$SBX_TEST_BUILDDIR/plugins/local/tests/escape-probe"
[ -x "$probe" ] || make -C "$SBX_TEST_BUILDDIR" -s plugins/local/tests/escape-probe >/dev/null
host_pid=$$
# OP ARG ARG2 -> the "RET ERRNO" the battery asserts (EROFS 30, EACCES 13,
# ESRCH 3, EPERM 1, ECONNREFUSED 111, ENETUNREACH 101, EINVAL 22).
cat >"$TMP/expected" <<END
create /usr/escape - -1 30
create /usr/bin/escape - -1 30
create /escape - -1 30
create /etc/escape - -1 30
create /proc/sys/kernel/hostname - -1 13
kill $host_pid - -1 3
ptrace $host_pid - -1 3
ptrace 1 - -1 1
connect 127.0.0.1 1 -1 111
connect 10.0.0.1 80 -1 101
mount - - -1 1
umount - - -1 1
chroot - - -1 1
module - - -1 1
fmodule - - -1 1
unshare-user - - -1 1
clone-user - - -1 1
bpf - - -1 1
keyctl - - -1 1
userfaultfd - - -1 1
perf - - -1 1
tiocsti - - -1 1
setuid - - -1 22
fanotify - - -1 1
memfd_secret - - -1 1
END
cut -d' ' -f1-3 "$TMP/expected" >"$TMP/ops"
script="cat >/work/probe && chmod +x /work/probe && while read -r op a b; do
  set -- \"\$op\"; [ \"\$a\" = - ] || set -- \"\$@\" \"\$a\"; [ \"\$b\" = - ] || set -- \"\$@\" \"\$b\"
  echo \"\$op \$a \$b \$(/work/probe \"\$@\")\"; done <<'OPS'
$(cat "$TMP/ops")
OPS"

"$SBX" run -- true 2>/dev/null
ready=$(wait_ready 1)
"$SBX" run -i -- sh -c "$script" <"$probe" >"$TMP/pooled" 2>"$ERR" || fail "the pooled probes failed"
expect_took "$ready"
diff -u "$TMP/expected" "$TMP/pooled" >&2 || fail "the ready sandbox let a probe through"
"$SBX" run --fresh -i -- sh -c "$script" <"$probe" >"$TMP/fresh" 2>"$ERR" || fail "the fresh probes failed"
diff -u "$TMP/fresh" "$TMP/pooled" >&2 || fail "the ready sandbox differs from a fresh one"
echo "PASS"
