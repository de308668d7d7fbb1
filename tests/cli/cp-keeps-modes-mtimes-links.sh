#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `cp` keeps what `docker cp` keeps and widens nothing, both ways: a 0600
# file stays 0600 (whatever the umask), a 0755 script keeps +x, mtimes are
# kept, setuid/setgid never reach the host, symlinks are copied as links
# (one leading out too) and never followed; a symlink planted at the
# destination, on either side, is replaced or refused, never written
# through. On fake:// by default; plugins/local/tests runs it on local://
# (CP_DSN).
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
dsn=${CP_DSN:-fake://}
SANDBOXIO_DSN=$dsn
export SANDBOXIO_DSN
TMPDIR="$TMP/t"; mkdir "$TMPDIR"; export TMPDIR

# stat_of FILE...: "name mode mtime type" per file, never following a link.
stat_of() { stat -c '%n %a %Y %F' "$@"; }

# The fake cannot close the network: it is asked for none only elsewhere.
case $dsn in fake:*) net="--network open" ;; *) net= ;; esac
# shellcheck disable=SC2086
sbx create $net --ttl 5m
expect_status 0
id=$(cat "$OUT")
trap '"$SBX" kill "$id" >/dev/null 2>&1 || true; rm -rf "$TMP"' EXIT

# The host tree.
src="$TMP/src"
mkdir -p "$src/sub"
printf 'top secret\n' >"$src/secret"; chmod 0600 "$src/secret"
printf '#!/bin/sh\necho ran\n' >"$src/run.sh"; chmod 0755 "$src/run.sh"
printf 'plain\n' >"$src/sub/plain"; chmod 0640 "$src/sub/plain"
ln -s ../secret "$src/sub/rel"
ln -s /etc/passwd "$src/out"
ln -s ../../nowhere "$src/dangling"
touch -d @1600000000 "$src/secret"
touch -d @1500000000 "$src/run.sh"
touch -d @1400000000 "$src/sub/plain"
touch -h -d @1300000000 "$src/out"
chmod 0750 "$src/sub"; touch -d @1200000000 "$src/sub"

# --- host to sandbox, under umask 000: nothing widens ---------------------
set +e
(umask 000; "$SBX" cp "$src" "$id:in" >"$OUT" 2>"$ERR" </dev/null)
status=$?
set -e
expect_status 0
sbx exec "$id" -- sh -c 'cd in && stat -c "%n %a %Y %F" secret run.sh sub sub/plain out &&
    readlink out sub/rel dangling && ./run.sh'
expect_status 0
cat >"$TMP/want-in" <<'EOF'
secret 600 1600000000 regular file
run.sh 755 1500000000 regular file
sub 750 1200000000 directory
sub/plain 640 1400000000 regular file
out 777 1300000000 symbolic link
/etc/passwd
../secret
../../nowhere
ran
EOF
diff -u "$TMP/want-in" "$OUT" >&2 || fail "host to sandbox did not keep modes, mtimes and links"
echo "PASS: host to sandbox keeps modes, mtimes and symlinks (umask 000)"

# --- sandbox to host, under umask 000 --------------------------------------
sbx exec "$id" -- sh -c 'printf x > in/suid && chmod 4755 in/suid && chmod 2750 in/sub &&
    touch -d @1200000000 in/sub'
expect_status 0
set +e
(umask 000; "$SBX" cp "$id:in" "$TMP/back" >"$OUT" 2>"$ERR" </dev/null)
status=$?
set -e
expect_status 0
(cd "$TMP/back" && stat_of secret run.sh sub sub/plain out suid &&
    readlink out sub/rel dangling && ./run.sh) >"$OUT" 2>&1 || fail "the copy is incomplete"
cat >"$TMP/want-out" <<'EOF'
secret 600 1600000000 regular file
run.sh 755 1500000000 regular file
sub 750 1200000000 directory
sub/plain 640 1400000000 regular file
out 777 1300000000 symbolic link
suid 755 
/etc/passwd
../secret
../../nowhere
ran
EOF
sed 's/^suid 755 [0-9]* regular file$/suid 755 /' "$OUT" >"$TMP/got-out"
diff -u "$TMP/want-out" "$TMP/got-out" >&2 ||
    fail "sandbox to host did not keep modes, mtimes and links, or carried setuid/setgid"
echo "PASS: sandbox to host keeps modes, mtimes and symlinks, drops setuid/setgid (umask 000)"

# A single file out keeps its mode too.
sbx cp "$id:in/secret" "$TMP/one"
expect_status 0
[ "$(stat -c %a "$TMP/one")" = 600 ] || fail "a single 0600 file came out $(stat -c %a "$TMP/one")"

# --- a symlink at the host destination is replaced, never written through -
printf 'victim\n' >"$TMP/victim"; chmod 0644 "$TMP/victim"
mkdir "$TMP/dst"
ln -s "$TMP/victim" "$TMP/dst/secret"
sbx cp "$id:in/secret" "$TMP/dst/secret"
expect_status 0
[ "$(cat "$TMP/victim")" = victim ] || fail "cp wrote through a symlink at the destination"
[ -L "$TMP/dst/secret" ] && fail "the planted symlink is still there"
[ "$(stat -c %a "$TMP/dst/secret")" = 600 ] || fail "the file that replaced the link is not 0600"
# Inside a copied tree: a directory's place taken by a link to elsewhere is refused.
mkdir -p "$TMP/dst2/in" "$TMP/elsewhere"
ln -s "$TMP/elsewhere" "$TMP/dst2/in/sub"
sbx cp "$id:in" "$TMP/dst2"
expect_error 123 SBX_E4011
[ -z "$(ls -A "$TMP/elsewhere")" ] || fail "cp wrote through a symlink inside the tree"
echo "PASS: a symlink at the host destination is never written through"

# --- a symlink in the sandbox destination is replaced, never written through
sbx exec "$id" -- sh -c 'mkdir in2 && printf kept > in2/target && ln -s target in2/secret'
expect_status 0
sbx cp "$src/secret" "$id:in2/secret"
expect_status 0
sbx exec "$id" -- sh -c 'cat in2/target; echo; stat -c "%a %F" in2/secret'
expect_stdout "$(printf 'kept\n600 regular file')"
echo "PASS: a symlink at the sandbox destination is never written through"

# --- tar streams keep them too ---------------------------------------------
if readelf -d "$SBX_TEST_BUILDDIR/src/.libs/sandboxio-cp" 2>/dev/null | grep NEEDED |
        grep -q libarchive; then
    "$SBX" cp "$id:in" - >"$TMP/t.tar" 2>"$ERR" || fail "cp to - failed"
    tar -tvf "$TMP/t.tar" >"$OUT"
    grep -q '^-rw------- .* in/secret$' "$OUT" || fail "the stream lost secret's mode"
    grep -q '^lrwxrwxrwx .* in/out -> /etc/passwd$' "$OUT" || fail "the stream lost the link"
    "$SBX" cp - "$id:fromtar" <"$TMP/t.tar" >"$OUT" 2>"$ERR" || fail "cp from - failed"
    sbx exec "$id" -- sh -c 'cd fromtar/in && stat -c "%n %a %Y %F" secret sub && readlink out'
    expect_stdout "$(printf 'secret 600 1600000000 regular file\nsub 750 1200000000 directory\n/etc/passwd')"
    echo "PASS: tar streams keep modes, mtimes and symlinks"
fi
