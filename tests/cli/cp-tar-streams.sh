#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# cp with "-": a tar stream on stdin is unpacked into the sandbox, and a
# sandbox's tree is written to stdout as one, entry by entry. A sandboxio
# built without libarchive (no docker backend) refuses both with SBX_E1018
# and changes nothing.
set -eu
. "$SBX_TEST_SRCDIR/tests/cli/lib.sh"
TMPDIR="$TMP/t"; mkdir "$TMPDIR"; export TMPDIR

sbx create --network open --ttl 5m
expect_status 0
id=$(cat "$OUT")
sbx exec "$id" -- sh -c 'mkdir -p tree/sub && printf deep > tree/sub/f && printf top > tree/g'
expect_status 0
mkdir "$TMP/in"; printf 'tarred' >"$TMP/in/x"; mkdir "$TMP/in/d"; printf 'y' >"$TMP/in/d/y"
(cd "$TMP/in" && tar -cf "$TMP/in.tar" x d)

# `cp` is the part sandboxio-cp (src/cli/parts.h): it alone links libarchive.
if readelf -d "$SBX_TEST_BUILDDIR/src/.libs/sandboxio-cp" 2>/dev/null | grep NEEDED |
        grep -q libarchive; then
    "$SBX" cp "$id:tree" - >"$TMP/t.tar" 2>"$ERR" || fail "cp to - failed"
    tar -tf "$TMP/t.tar" | sort >"$TMP/names"
    printf 'tree/\ntree/g\ntree/sub/\ntree/sub/f\n' | cmp -s - "$TMP/names" ||
        fail "the tar stream holds $(tr '\n' ' ' <"$TMP/names")"
    mkdir "$TMP/x"; tar -xf "$TMP/t.tar" -C "$TMP/x"
    [ "$(cat "$TMP/x/tree/sub/f")" = deep ] || fail "the tar stream's tree/sub/f is wrong"
    "$SBX" cp - "$id:unpacked" <"$TMP/in.tar" 2>"$ERR" || fail "cp from - failed"
    sbx exec "$id" -- sh -c 'cat unpacked/x unpacked/d/y'
    expect_stdout "tarredy"
    # A name leading out of the work dir is refused by the library.
    (cd "$TMP" && tar -cf "$TMP/evil.tar" --absolute-names "../$(basename "$TMP")/in/x" 2>/dev/null) || true
    if [ -s "$TMP/evil.tar" ]; then
        "$SBX" cp - "$id:unpacked" <"$TMP/evil.tar" >"$OUT" 2>"$ERR" && fail "a '..' entry was unpacked"
        expect_stderr_has "SBX_E3015"
    fi
    echo "PASS: tar streams in and out"
else
    "$SBX" cp "$id:tree" - >"$OUT" 2>"$ERR" </dev/null && fail "cp to - worked without libarchive"
    expect_stderr_has "SBX_E1018"
    "$SBX" cp - "$id:unpacked" <"$TMP/in.tar" >"$OUT" 2>"$ERR" && fail "cp from - worked without libarchive"
    expect_stderr_has "SBX_E1018"
    sbx ls "$id"
    expect_stdout "tree/"
    echo "PASS: without libarchive, cp - is refused with SBX_E1018"
fi
sbx kill "$id"
expect_status 0
