#!/usr/bin/env bash
# End-to-end test of `evgcheck fuzz` on the planted target (planted_fuzz_target.cpp) of the fuzz build:
# the session finds both planted bugs, de-duplicates them to two findings, minimises and saves each, exits 1,
# writes the report, and each saved replay command (run as printed) reproduces its finding.
# Usage: fuzz_session_e2e.sh EVGCHECK FUZZ_BIN_DIR WORK_DIR
set -u
evgcheck=$1 fuzz_bin=$2 work=$3
fail() { echo "FAIL: $*"; echo "--- session output ---"; cat "$work/session.log"; exit 1; }
rm -rf "$work" && mkdir -p "$work"
cd "$work"
"$evgcheck" fuzz planted --time 20 --jobs 2 --fuzz-bin "$fuzz_bin" --out out --minimize-time 5 >session.log 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "exit code $rc, expected 1 (findings)"
findings=$(ls out/findings | wc -l)
[ "$findings" -eq 2 ] || fail "$findings findings, expected 2 (one per planted bug)"
grep -qx "planted: an input starting with EV" out/findings/*/signature.txt || fail "no EVG-FINDING signature"
grep -qx "AddressSanitizer: heap-buffer-overflow READ of size 1 in LLVMFuzzerTestOneInput" \
  out/findings/*/signature.txt || fail "no heap-buffer-overflow signature"
for d in out/findings/*/; do
  [ -s "$d/input" ] || fail "$d has no input"
  cmd=$(cat "$d/replay.txt")
  sig=$(cat "$d/signature.txt")
  # The replay command works as printed from any folder (here: /), and fails on the finding: the replay
  # program for the EVG-FINDING, the sanitizer build's fuzz binary for the heap overflow.
  if (cd / && bash -c "$cmd") >"$d/replayed.log" 2>&1; then fail "replay '$cmd' passed"; fi
  case "$sig" in
    planted:*) grep -q "EVG-FINDING: $sig" "$d/replayed.log" || fail "replay of $d does not print the finding";;
    *) grep -q "ERROR: AddressSanitizer: heap-buffer-overflow" "$d/replayed.log" || fail "replay of $d does not report the overflow";;
  esac
done
python3 - <<'PY' || fail "report.json"
import json
r = json.load(open("out/report.json"))
assert r["target"] == "planted", r
assert r["execs"] > 0 and r["coverage"] > 0, r
assert len(r["findings"]) == 2, r
assert sum(f["count"] for f in r["findings"]) >= 2, r
PY
grep -q "^| finding | signature |" out/report.md || fail "report.md has no findings table"
grep -q "execs [0-9]" session.log || fail "no progress line"
echo "PASS: 2 findings, replayed; $(grep -c . out/report.md) report lines"
