#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# backends.sh [--http|--no-http]: the backends of configure.ac's
# SBX_BACKEND lines (the one list of them, m4/sbx_backend.m4), one name a
# line; with --http only those that speak HTTP, with --no-http the others.
# For the scripts that run before configure.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in
    --http) sed -n 's/^SBX_BACKEND(\[\([a-z0-9]*\)\],.*, *\[http\])$/\1/p' "$top/configure.ac" ;;
    --no-http) sed -n '/, *\[http\])$/!s/^SBX_BACKEND(\[\([a-z0-9]*\)\],.*/\1/p' "$top/configure.ac" ;;
    "") sed -n 's/^SBX_BACKEND(\[\([a-z0-9]*\)\],.*/\1/p' "$top/configure.ac" ;;
    *) echo "usage: backends.sh [--http|--no-http]" >&2; exit 2 ;;
esac
