#!/bin/sh
# scripts/check-mcp-fuzz.sh [SECONDS] - build the MCP JSON-RPC parser's
# libFuzzer target (tests/fuzz/fuzz_mcp_jsonrpc.c) with clang and run it for
# SECONDS (default 60) from its seed corpus. Needs clang and json-c; without
# clang it skips (77), and fails under CI=true.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
if ! command -v clang >/dev/null 2>&1; then
    echo "check-mcp-fuzz: clang is not installed" >&2
    [ "${CI:-}" = true ] && exit 1
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# config.h: the target includes it; nothing of it matters to the parser.
: >"$tmp/config.h"
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$tmp" -I"$top/include" $(pkg-config --cflags json-c) \
    "$top/tests/fuzz/fuzz_mcp_jsonrpc.c" "$top/src/cli/mcp/jsonrpc.c" \
    $(pkg-config --libs json-c) -o "$tmp/fuzz_mcp_jsonrpc"
# A scratch copy: libFuzzer adds what it finds to the first corpus directory.
mkdir "$tmp/corpus"
cp "$top/tests/fuzz/corpus/fuzz_mcp_jsonrpc/"* "$tmp/corpus/"
cd "$tmp"
./fuzz_mcp_jsonrpc -max_total_time="$secs" -max_len=4096 -print_final_stats=1 corpus
