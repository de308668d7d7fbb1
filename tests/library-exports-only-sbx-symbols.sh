#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# libsandboxio exports only sbx_* symbols and links no libcurl: plugins that
# speak HTTP bring their own, so the core stays small and network-free.
set -eu
lib="$SBX_TEST_BUILDDIR/src/.libs/libsandboxio.so"
[ -f "$lib" ] || { echo "FAIL: $lib not built"; exit 1; }
bad=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^sbx_' || true)
if [ -n "$bad" ]; then
  echo "FAIL: exported symbols outside sbx_*:"; echo "$bad"; exit 1
fi
count=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -c '^sbx_')
[ "$count" -ge 50 ] || { echo "FAIL: only $count sbx_* symbols exported"; exit 1; }
if ldd "$lib" | grep -q 'libcurl'; then
  echo "FAIL: libsandboxio links libcurl:"; ldd "$lib"; exit 1
fi
if readelf -d "$lib" | grep NEEDED | grep -q -E 'libcurl|libjson-c|libarchive'; then
  echo "FAIL: libsandboxio needs a library only plugins should use:"; readelf -d "$lib" | grep NEEDED
  exit 1
fi
echo "PASS: $count exported symbols, all sbx_*; no libcurl, json-c or libarchive"
