#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# spec-date.sh SOURCES MACRO: print `#define MACRO "YYYY-MM-DD"`, the newest
# date of a stored spec copy in a plugin's spec/SOURCES (a line whose 4th
# column is a commit and 5th a date). A cloud plugin embeds it in its
# version as semver build metadata (0.1.0+spec.2026-08-21), which
# `sandboxio doctor` shows. Fails when SOURCES dates no copy.
set -eu
[ $# -eq 2 ] || { echo "usage: spec-date.sh SOURCES MACRO" >&2; exit 2; }
d=$(awk '$4 ~ /^[0-9a-f]+$/ && $5 ~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$/ { print $5 }' "$1" |
    sort | tail -n 1)
[ -n "$d" ] || { echo "spec-date.sh: no dated copy in $1" >&2; exit 1; }
echo "#define $2 \"$d\""
