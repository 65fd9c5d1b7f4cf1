#!/usr/bin/env bash
# scripts/tidy.sh's cache remembers clean translation units only, keyed by everything tidy's verdict depends
# on (run by ctest as tidy_cache_remembers_clean_units_only). On a planted project in miniature (a copy of the
# script and .clang-tidy, one unit and the header it includes, a compile command with a GCC-only switch):
#   1. the clean unit is checked; 2. a second run takes it from the cache;
#   3. a finding planted in the header (not in the unit) is found; 4. and found again: findings are not kept;
#   5. the header restored is the cached clean version again; 6. a changed .clang-tidy checks it again.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts" "$tmp/lib" "$tmp/out"
cp "$src/scripts/tidy.sh" "$tmp/scripts/"
cp "$src/.clang-tidy" "$tmp/"
echo 'inline int* answer() { return nullptr; }' >"$tmp/lib/a.hpp"
printf '#include "a.hpp"\nint* use() { return answer(); }\n' >"$tmp/lib/a.cpp"
cat >"$tmp/out/compile_commands.json" <<JSON
[{"directory": "$tmp/out", "file": "$tmp/lib/a.cpp",
  "command": "c++ -std=c++20 -fno-tree-sra -Wno-stringop-overflow -I$tmp/lib -o a.o -c $tmp/lib/a.cpp"}]
JSON
fail=0
step() { # step NAME EXPECTED_EXIT EXPECTED_TEXT
  local out rc=0
  out=$("$tmp/scripts/tidy.sh" "$tmp/out" 2>&1) || rc=$?
  if [ "$rc" -ne "$2" ] || ! grep -qF -- "$3" <<<"$out"; then
    echo "tidy cache: step '$1' expected exit $2 and '$3', got exit $rc:"
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
[ "$fail" -eq 0 ] && echo "tidy cache: 6 steps as expected"
exit "$fail"
