#!/usr/bin/env bash
# scripts/phases.sh's summary with EVG_CPU_PROFILE (run by ctest as phases_summary_lists_and_exits_0): a script
# whose phases pass exits 0 after listing the 20 heaviest steps and the 20 longest tests, however long the
# profile and the JUnit file are (long enough here that a reader which stops early leaves the writer to die of
# SIGPIPE, exit 141 under pipefail).
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for i in $(seq 1 20000); do echo "$i.00 $i.00 unit_$i.o"; done >"$dir/profile.txt"
{
  echo '<testsuite>'
  for i in $(seq 1 20000); do echo "<testcase name=\"test_$i\" classname=\"c\" time=\"$i\"/>"; done
  echo '</testsuite>'
} >"$dir/times.xml"
cat >"$dir/script.sh" <<SCRIPT
set -euo pipefail
source "$PWD/scripts/phases.sh"
trap phases_summary EXIT
export EVG_CPU_PROFILE="$dir/profile.txt"
ctest_times="$dir/times.xml"
phase demo true
SCRIPT
status=0
out=$(bash "$dir/script.sh" 2>&1) || status=$?
fail=0
[ "$status" -eq 0 ] || { echo "phases: the script exited $status, not 0"; fail=1; }
grep -q '^== the 20 heaviest compile and link steps (CPU-s, wall s, output), of 20000 in ' <<<"$out" ||
  { echo "phases: no list of the heaviest steps"; fail=1; }
grep -q '^   20000.00 20000.00 unit_20000.o$' <<<"$out" || { echo "phases: the heaviest step is not first"; fail=1; }
grep -q '^== the 20 longest tests' <<<"$out" || { echo "phases: no list of the longest tests"; fail=1; }
grep -q '^   20000 test_20000$' <<<"$out" || { echo "phases: the longest test is not first"; fail=1; }
[ "$(grep -c '^   [0-9]' <<<"$out")" -eq 40 ] || { echo "phases: the lists do not have 20 lines each"; fail=1; }
[ "$fail" -eq 0 ] || printf '%s\n' "$out"
exit "$fail"
