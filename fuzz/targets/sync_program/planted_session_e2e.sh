#!/usr/bin/env bash
# End-to-end test of `evgcheck fuzz` on sync_program with two planted bugs (fuzz_sync_program_planted: the machine
# loses its races and its flags left set): one session, seeded with sync_program's corpus, finds both kinds of
# disagreement, keeps one finding per kind (each signed by what disagrees, not "deadly signal"), and each saved
# replay runs as printed in the plain replay program (fuzz_sync_program_planted_replay, beside evgcheck's build),
# not the libFuzzer binary, and prints its finding again.
# Usage: planted_session_e2e.sh EVGCHECK FUZZ_BIN_DIR SEED_CORPUS WORK_DIR
set -u
evgcheck=$1 fuzz_bin=$2 seeds=$3 work=$4
fail() { echo "FAIL: $*"; echo "--- session output ---"; cat "$work/session.log"; exit 1; }
rm -rf "$work" && mkdir -p "$work/corpus"
cp "$seeds"/* "$work/corpus/"
cd "$work"
"$evgcheck" fuzz sync_program_planted --time 30 --jobs 2 --fuzz-bin "$fuzz_bin" --corpus corpus --out out \
  --minimize-time 5 >session.log 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "exit code $rc, expected 1 (findings)"
grep -qx "sync_program: flags left" out/findings/*/signature.txt || fail "no 'flags left' finding"
grep -q "^sync_program: miss" out/findings/*/signature.txt || fail "no 'miss' finding"
if grep -q "deadly signal" out/findings/*/signature.txt; then fail "a finding signed by the signal"; fi
kinds=$(cat out/findings/*/signature.txt | sort -u | wc -l)
findings=$(ls out/findings | wc -l)
[ "$kinds" -eq "$findings" ] || fail "$findings findings for $kinds signatures: one kind kept twice"
for d in out/findings/*/; do
  cmd=$(cat "$d/replay.txt")
  sig=$(cat "$d/signature.txt")
  case "$cmd" in *fuzz_sync_program_planted_replay\ *) ;; *) fail "$d replays in '$cmd', not the replay program";; esac
  if (cd / && bash -c "$cmd") >"$d/replayed.log" 2>&1; then fail "replay '$cmd' passed"; fi
  grep -qx "EVG-FINDING: $sig" "$d/replayed.log" || fail "replay of $d does not print 'EVG-FINDING: $sig'"
done
echo "PASS: $findings findings of $kinds kinds in one session, each replayed in the replay program"
