#!/usr/bin/env bash
# The ctest presets named by the README select the tests it says they do (run by ctest as
# test_presets_select_their_labels, from the release build):
#   release       every test except the labels long and lint (the README's test command)
#   release-long  the long runs (`ctest --preset release-long`), at least one
#   release-lint  format_check and tidy_check (scripts/lint.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
fail=0
list() { ctest --preset "$1" -N 2>&1 | sed -n 's/^ *Test *#[0-9]*: *//p'; }
release=$(list release)
long=$(list release-long)
lint=$(list release-lint)
[ -n "$release" ] || { echo "presets: release selects no test"; fail=1; }
[ -n "$long" ] || { echo "presets: release-long selects no test"; fail=1; }
for t in format_check tidy_check; do
  grep -qx "$t" <<<"$lint" || { echo "presets: release-lint does not select $t"; fail=1; }
  if grep -qx "$t" <<<"$release"; then echo "presets: release selects the lint test $t"; fail=1; fi
done
# No test of release-long or release-lint is in release.
while read -r t; do
  [ -n "$t" ] || continue
  if grep -qxF "$t" <<<"$release"; then echo "presets: release selects '$t' of release-long/release-lint"; fail=1; fi
done <<<"$long
$lint"
[ "$fail" -eq 0 ] && echo "presets: release $(wc -l <<<"$release") tests, release-long $(wc -l <<<"$long"), release-lint $(wc -l <<<"$lint")"
exit "$fail"
