# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/test.sh (and by tests/gates/test-sh-counts.sh): the
# counts of a run, the totals line that ends it, and `step`, one gate
# counted as one test. The exit status of the run is $status; the EXIT trap
# keeps it, so CI reads the same verdict the totals print.
status=0
summary=""
# Seconds since the run began, for the time each part took (CI's budget).
run_began=$(date +%s)
since_start() { echo $(($(date +%s) - run_began)); }
passed=0; failed=0; skipped=0

# The totals line ends every run, also one that stops early (a failed
# install, configure or autoreconf): a reader, and CI, always get a count.
totals() {
  echo "=== totals (after $(since_start) s)"
  printf '%s' "$summary"
  echo "$passed passed, $failed failed, $skipped skipped"
}
# Under set -e a failing command in the trap would replace the script's
# exit status (a kill of a canary already reaped made a passing run exit
# 1): the trap runs with -e off and ends with the status it was given.
trap 'rc=$?; set +e; [ -z "${canary_pid:-}" ] || kill "$canary_pid" 2>/dev/null
      [ "${totals_done:-}" ] || { [ $rc -eq 0 ] || failed=$((failed + 1)); totals; }
      exit $rc' EXIT

# step NAME COMMAND...: one more gate, counted as one test. The command
# prints its own details; its exit status decides (77 = skipped, and with
# CI=true a gate must not skip: it counts as failed).
step() {
  name=$1; shift
  echo "=== $name (at $(since_start) s)"
  step_began=$(date +%s)
  set +e; "$@"; rc=$?; set -e
  echo "=== $name took $(($(date +%s) - step_began)) s"
  if [ $rc -eq 0 ]; then
    echo "PASS: $name"; passed=$((passed + 1))
  elif [ $rc -eq 77 ] && [ "${CI:-}" != true ]; then
    echo "SKIP: $name"; skipped=$((skipped + 1))
  else
    echo "FAIL: $name (exit $rc)"; failed=$((failed + 1)); status=1
  fi
  summary="$summary$name: exit $rc
"
}

