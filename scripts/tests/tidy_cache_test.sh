#!/usr/bin/env bash
# scripts/tidy.sh's cache remembers clean translation units only, keyed by everything tidy's verdict depends
# on (run by ctest as tidy_cache_remembers_clean_units_only). On a planted project in miniature (a copy of the
# script and .clang-tidy, one unit and the header it includes, a compile command with a GCC-only switch):
#   1. the clean unit is checked; 2. a second run takes it from the cache;
#   3. a finding planted in the header (not in the unit) is found; 4. and found again: findings are not kept;
#   5. the header restored is the cached clean version again; 6. a changed .clang-tidy checks it again;
#   7. --record writes the unit's key to .ci/tidy-clean.txt; 8. with the build's cache gone, the record
#   vouches for it; 9. a finding planted again is found despite the record; 10. the same tree in another
#   folder (another clone) finds its unit in the record too; 11-13. the sources of a unity batch (below).
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts" "$tmp/lib" "$tmp/out"
cp "$src/scripts/tidy.sh" "$src/scripts/tidy.py" "$tmp/scripts/"
cp "$src/.clang-tidy" "$tmp/"
echo 'inline int* answer() { return nullptr; }' >"$tmp/lib/a.hpp"
printf '#include "a.hpp"\nint* use() { return answer(); }\n' >"$tmp/lib/a.cpp"
cat >"$tmp/out/compile_commands.json" <<JSON
[{"directory": "$tmp/out", "file": "$tmp/lib/a.cpp",
  "command": "c++ -std=c++20 -fno-tree-sra -Wno-stringop-overflow -I$tmp/lib -o a.o -c $tmp/lib/a.cpp"}]
JSON
fail=0
step() { # step NAME EXPECTED_EXIT EXPECTED_TEXT [TIDY_ARGS...]
  local name=$1 want=$2 text=$3 out rc=0
  shift 3
  out=$("$tmp/scripts/tidy.sh" "$@" "$tmp/out" 2>&1) || rc=$?
  if [ "$rc" -ne "$want" ] || ! grep -qF -- "$text" <<<"$out"; then
    echo "tidy cache: step '$name' expected exit $want and '$text', got exit $rc:"
    sed 's/^/  /' <<<"$out"
    fail=1
  fi
}
step "clean unit checked" 0 "1 checked, 0 unchanged"
step "clean unit from the cache" 0 "0 checked, 1 unchanged"
# The same length as the clean header: the key is the content, not its size.
echo 'inline int* answer() { return 0000000; }' >"$tmp/lib/a.hpp"
step "finding in the header found" 1 "a.hpp:1:"
step "finding not remembered" 1 "[modernize-use-nullptr"
echo 'inline int* answer() { return nullptr; }' >"$tmp/lib/a.hpp"
step "restored header from the cache" 0 "0 checked, 1 unchanged"
echo "# a comment" >>"$tmp/.clang-tidy"
step "changed configuration checks again" 0 "1 checked, 0 unchanged"
step "record written" 0 "0 checked, 1 unchanged" --record
if [ "$(wc -l <"$tmp/.ci/tidy-clean.txt")" -ne 1 ] || ! grep -q " lib/a.cpp$" "$tmp/.ci/tidy-clean.txt"; then
  echo "tidy cache: step 'record written' left:"; cat "$tmp/.ci/tidy-clean.txt"; fail=1
fi
rm -rf "$tmp/out/tidy-cache"
step "the record vouches" 0 "0 checked, 1 unchanged since a clean run (1 of them recorded"
echo 'inline int* answer() { return 0000000; }' >"$tmp/lib/a.hpp"
step "finding found despite the record" 1 "a.hpp:1:"
echo 'inline int* answer() { return nullptr; }' >"$tmp/lib/a.hpp"
moved=$(mktemp -d)
trap 'rm -rf "$tmp" "$moved"' EXIT
cp -r "$tmp/." "$moved/"
rm -rf "$moved/out/tidy-cache"
sed -i "s|$tmp|$moved|g" "$moved/out/compile_commands.json"
tmp_saved=$tmp
tmp=$moved
step "another clone finds the record" 0 "(1 of them recorded"
tmp=$tmp_saved
# A unity batch (EVG_UNITY_BUILD): the unit of a.cpp compiled alone, recorded clean, then the same source with
# b.cpp in one batch in the build folder: 11. each source of the batch is checked as its own unit, and a.cpp
# keeps its key (the record vouches for it) while b.cpp's planted finding is found and named.
unity=$tmp/out/CMakeFiles/t.dir/Unity
mkdir -p "$unity"
printf 'int* other() { return 0; }\n' >"$tmp/lib/b.cpp"
printf '#include "%s"\n\n#include "%s"\n' "$tmp/lib/a.cpp" "$tmp/lib/b.cpp" >"$unity/unity_0_cxx.cxx"
alone="c++ -std=c++20 -I$tmp/lib -o CMakeFiles/t.dir/lib/a.cpp.o -c $tmp/lib/a.cpp"
cat >"$tmp/out/compile_commands.json" <<JSON
[{"directory": "$tmp/out", "file": "$tmp/lib/a.cpp", "command": "$alone"}]
JSON
step "a unit alone recorded" 0 "1 checked, 0 unchanged" --record
rm -rf "$tmp/out/tidy-cache"
cat >"$tmp/out/compile_commands.json" <<JSON
[{"directory": "$tmp/out", "file": "$unity/unity_0_cxx.cxx",
  "command": "c++ -std=c++20 -I$tmp/lib -o CMakeFiles/t.dir/Unity/unity_0_cxx.cxx.o -c $unity/unity_0_cxx.cxx"}]
JSON
step "a batch's sources checked one by one" 1 "b.cpp:1:"
step "a batch's source keeps its key" 1 "1 checked, 1 unchanged since a clean run (1 of them recorded"
[ "$fail" -eq 0 ] && echo "tidy cache: 13 steps as expected"
exit "$fail"
