#!/usr/bin/env bash
# Runs an upstream example program on the model and judges the run: it must print upstream's own
# "Compare success." (its golden comparison), exit 0, and the model's report (EVG_REPORT, JSON) may hold only
# findings listed in known_findings.txt (docs/upstream-findings.md). Prints the findings it saw.
#   run_upstream_program.sh [--no-known-findings] PROGRAM [program arguments...]
# --no-known-findings: no finding at all is accepted (a program built on a copy with the fixes applied).
# The schedule comes from the environment as for any program on the model (EVG_SCHEDULER, EVG_SEED).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
known="$here/known_findings.txt"
if [[ "${1:-}" == --no-known-findings ]]; then known=/dev/null; shift; fi
program=$1
shift
report=$(mktemp)
out=$(mktemp)
trap 'rm -f "$report" "$out"' EXIT
status=0
EVG_REPORT="$report" "$program" "$@" > "$out" 2>&1 || status=$?
cat "$out"
if [[ $status -ne 0 ]]; then echo "FAIL: the program exited with status $status"; exit 1; fi
if ! grep -q '^Compare success\.$' "$out"; then echo "FAIL: no 'Compare success.' from the program"; exit 1; fi
if [[ ! -s "$report" ]]; then echo "FAIL: the program launched no kernel on the model (no report written)"; exit 1; fi
# Each violation: its kind and the site of its first location.
findings=$(awk '
  /"kind": "/ { match($0, /"kind": "[a-z_]+"/); kind = substr($0, RSTART + 9, RLENGTH - 10); want = 1; next }
  want && /"site": "/ { match($0, /"site": "[^"]*"/); print kind " " substr($0, RSTART + 9, RLENGTH - 10); want = 0 }
' "$report" | sort -u)
unexpected=0
while read -r kind site; do
  [[ -n "$kind" ]] || continue
  if grep -qE "^$kind $site( |$)" "$known"; then
    echo "known upstream finding: $kind at $site (docs/upstream-findings.md)"
  else
    echo "FAIL: finding not explained in docs/upstream-findings.md: $kind at $site"
    unexpected=1
  fi
done <<< "$findings"
[[ $unexpected -eq 0 ]] || exit 1
echo "PASS: Compare success.; the report holds $(grep -c . <<< "$findings" || true) known finding kind(s) and nothing else"
