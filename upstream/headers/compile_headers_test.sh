#!/usr/bin/env bash
# compile_headers.sh on a small checkout written here (not upstream's): three headers that compile against
# evgcheck's AscendC layer (one of them only inside the header that includes it) and, planted, one that calls an
# AscendC function the layer does not have. --units together must pass the clean checkout in one unit and, on the
# planted one, fail and name the planted header with its first error, found header by header; --units each must
# classify the clean checkout's headers as it always did; a wrong --units value is refused with the rule.
#
# usage: compile_headers_test.sh SOURCE_DIR CXX
set -euo pipefail
src=$1 cxx=$2
script="$src/upstream/headers/compile_headers.sh"
flags=(-I"$src/lib/ascendc/include" -I"$src/lib/hw/include" -I"$src/lib/vocab/include")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAILED: $*"; exit 1; }

checkout() {  # folder planted(0|1)
  mkdir -p "$1/include/catlass" "$1/include/tla" "$1/examples/64_ascend950_matmul_evg"
  printf '#pragma once\n#include "catlass/good.hpp"\n#include "catlass/needs_good.hpp"\n' \
    > "$1/include/catlass/catlass.hpp"
  printf '#pragma once\nnamespace Catlass { using GoodTensor = AscendC::LocalTensor<float>; }\n' \
    > "$1/include/catlass/good.hpp"
  # not self-contained: uses good.hpp's name without including it
  printf '#pragma once\nnamespace Catlass { inline void UseGood(GoodTensor&) { AscendC::PipeBarrier<PIPE_V>(); } }\n' \
    > "$1/include/catlass/needs_good.hpp"
  printf '#pragma once\nnamespace Catlass { inline void Planted() { AscendC::NoSuchAscendCFunction(); } }\n' \
    > "$1/include/catlass/planted.hpp"
  printf '#include "catlass/catlass.hpp"\n' > "$1/examples/64_ascend950_matmul_evg/example.cpp"
  if [[ "$2" == 1 ]]; then
    printf '#include "catlass/planted.hpp"\n' >> "$1/examples/64_ascend950_matmul_evg/example.cpp"
  fi
}
checkout "$tmp/clean" 0
checkout "$tmp/planted" 1
run() {  # name root units -> exit code, output in $tmp/name.out
  local status=0
  "$script" --root "$2" --set evg --archs 3510 --compilers "$cxx" --units "$3" --jobs 2 --work "$tmp/$1" \
    -- "${flags[@]}" > "$tmp/$1.out" 2>&1 || status=$?
  echo "$status"
}
row() { awk -v c="$(basename "$cxx")" '$1 == c && $2 == "3510" { $1 = $1; print }' "$tmp/$1.out"; }  # the table's row

[[ $(run clean_together "$tmp/clean" together) == 0 ]] || { cat "$tmp/clean_together.out"; fail "clean, together"; }
# compiled together failed gcc-limit in-includer other-chip core-pass stood-in of
[[ "$(row clean_together)" == "$(basename "$cxx") 3510 0 3 0 0 0 0 0 0 3" ]] ||
  { cat "$tmp/clean_together.out"; fail "clean, together: the three headers in one unit"; }
! grep -q "each header alone" "$tmp/clean_together.out" || fail "clean, together: went header by header"

[[ $(run planted_together "$tmp/planted" together) == 1 ]] || { cat "$tmp/planted_together.out"; fail "planted"; }
grep -q "do not compile in one unit (.*NoSuchAscendCFunction" "$tmp/planted_together.out" ||
  { cat "$tmp/planted_together.out"; fail "planted: the one unit's first error"; }
grep -q "^FAIL $(basename "$cxx") 3510 catlass/planted.hpp: .*NoSuchAscendCFunction" "$tmp/planted_together.out" ||
  { cat "$tmp/planted_together.out"; fail "planted: the FAIL line naming the header"; }
[[ "$(row planted_together)" == "$(basename "$cxx") 3510 2 0 1 0 1 0 0 0 4" ]] ||
  { cat "$tmp/planted_together.out"; fail "planted: header by header, 2 alone, 1 in its includer, 1 failed"; }

[[ $(run clean_each "$tmp/clean" each) == 0 ]] || { cat "$tmp/clean_each.out"; fail "clean, each"; }
[[ "$(row clean_each)" == "$(basename "$cxx") 3510 2 0 0 0 1 0 0 0 3" ]] ||
  { cat "$tmp/clean_each.out"; fail "clean, each: 2 alone, 1 in its includer"; }

status=0
"$script" --root "$tmp/clean" --units both -- "${flags[@]}" > "$tmp/bad.out" 2>&1 || status=$?
if [[ $status != 2 ]] || ! grep -q -- "--units is 'each' or 'together', not 'both'" "$tmp/bad.out"; then
  cat "$tmp/bad.out"
  fail "a wrong --units value"
fi
echo "compile_headers.sh: together and each agree on a clean checkout; the planted header is named"
