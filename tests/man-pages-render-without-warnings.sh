#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every man page in docs/man renders with groff without a single warning
# (-ww turns them all on), on the typesetter and the terminal devices.
# ".so" link pages are checked by test_error_catalog (their target exists).
set -u

if ! command -v groff >/dev/null 2>&1; then
    echo "SKIP: groff is not installed (Debian: apt-get install groff-base)"
    exit 77
fi
srcdir=${SBX_TEST_SRCDIR:?SBX_TEST_SRCDIR is not set}

pages=0
failed=0
for page in "$srcdir"/docs/man/*.[1-8]; do
    [ -f "$page" ] || continue
    case $(head -c 4 "$page") in .so*) continue ;; esac
    pages=$((pages + 1))
    for device in ps utf8; do
        out=$(groff -man -ww -z -T"$device" "$page" 2>&1)
        if [ -n "$out" ]; then
            echo "FAIL: $page (-T$device):"
            echo "$out"
            failed=1
        fi
    done
done

if [ "$pages" -lt 10 ]; then
    echo "FAIL: only $pages man pages found under $srcdir/docs/man"
    exit 1
fi
echo "$pages man pages checked"
exit $failed
