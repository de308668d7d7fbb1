#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sandboxio cp ID:PATH HOST` of a sparse file (2 GiB that cost the sandbox
# no disk) writes a sparse host file: its blocks stay few, its bytes the
# same. And a copy out writes at most --max-size bytes (1 GiB by default),
# holes included: past it the copy stops with SBX_E5009, also as a tar
# stream and across the files of a directory.
set -eu
. "$SBX_TEST_SRCDIR/plugins/local/tests/lib.sh"
S="$b/src/sandboxio"
tmp=$(mktemp -d)
id=
cleanup() {
    [ -z "$id" ] || "$S" kill --dsn local:// "$id" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; cat "$tmp/err" >&2 2>/dev/null || true; exit 1; }

# refused WHAT ARGS...: cp ARGS exits 125 with SBX_E5009.
refused() {
    what=$1; shift
    set +e
    "$S" cp --dsn local:// "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    status=$?
    set -e
    [ "$status" -eq 125 ] || fail "$what: exit $status, expected 125"
    grep -q "sandboxio: SBX_E5009: " "$tmp/err" || fail "$what: no SBX_E5009"
}

id=$("$S" create --dsn local:// --ttl 5m </dev/null) || fail "create"
"$S" exec --dsn local:// "$id" -- sh -c \
    'truncate -s 2G sparse && printf tail >>sparse && head -c 3000 /dev/urandom >data &&
     mkdir d && head -c 700000 /dev/zero | tr "\0" x >d/a && cp d/a d/b' </dev/null ||
    fail "making the files"

# Kept sparse: 2 GiB + 4 bytes, a few blocks (the data block and the tail's).
"$S" cp --dsn local:// --max-size 3G "$id:sparse" "$tmp/sparse" 2>"$tmp/err" </dev/null ||
    fail "cp of the sparse file"
[ "$(stat -c %s "$tmp/sparse")" -eq 2147483652 ] || fail "size $(stat -c %s "$tmp/sparse")"
blocks=$(stat -c %b "$tmp/sparse")
[ "$blocks" -le 64 ] || fail "the host file has $blocks blocks of 512 bytes for 4 bytes of data"
[ "$(tail -c 4 "$tmp/sparse")" = tail ] || fail "the file's last bytes are not 'tail'"
[ "$(head -c 1048576 "$tmp/sparse" | tr -d '\0' | wc -c)" -eq 0 ] || fail "the hole is not zeros"
# Data is copied byte for byte.
"$S" cp --dsn local:// "$id:data" "$tmp/data" 2>"$tmp/err" </dev/null || fail "cp of data"
[ "$("$S" exec --dsn local:// "$id" -- md5sum data </dev/null | cut -d' ' -f1)" = \
  "$(md5sum <"$tmp/data" | cut -d' ' -f1)" ] || fail "data differs after the copy"

# Bounded: by default 1 GiB, and the file written stays within it.
# A copy is written under a temporary name and renamed when whole: a
# refused one leaves neither the file nor its temporary behind.
refused "cp of 2 GiB under the default bound" "$id:sparse" "$tmp/default"
[ ! -e "$tmp/default" ] || [ "$(stat -c %s "$tmp/default")" -le 1073741824 ] ||
    fail "wrote past the default bound"
refused "cp past --max-size" --max-size 1k "$id:data" "$tmp/small"
[ ! -e "$tmp/small" ] || [ "$(stat -c %s "$tmp/small")" -le 1024 ] || fail "wrote past --max-size 1k"
[ -z "$(ls -A "$tmp" | grep '^\.sbx-cp-')" ] || fail "a refused copy left its temporary file"
refused "a directory past --max-size in all" --max-size 1M "$id:d" "$tmp/d"
if readelf -d "$b/src/.libs/sandboxio-cp" "$b/src/sandboxio-cp" 2>/dev/null | grep NEEDED | grep -q libarchive; then
    refused "a tar stream past --max-size" --max-size 1k "$id:data" -
fi
# 0: no bound.
"$S" cp --dsn local:// --max-size 0 "$id:d" "$tmp/d0" 2>"$tmp/err" </dev/null ||
    fail "cp with --max-size 0"
echo "PASS: a sparse file stays sparse on the host, and a copy out is bounded"
