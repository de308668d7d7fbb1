#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The performance gate (scripts/check-perf.sh) passes on this build: the
# shared objects `sandboxio version` and `run -- true` map are within their
# budget, and callgrind's instruction counts of `version`, of run's client
# and of one sbx_exec are within 10 % of the committed baseline. Figures it
# cannot measure here are printed as SKIP, with the reason.
set -u
b=${SBX_TEST_BUILDDIR:?} src=${SBX_TEST_SRCDIR:?}
"$src/scripts/check-perf.sh" "$b"
case $? in
  0) exit 0 ;;
  1) exit 1 ;;
  *) echo "ERROR: the gate could not run"; exit 99 ;;
esac
