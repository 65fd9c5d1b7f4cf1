#!/usr/bin/env bash
# evgcheck_add_program with the wrong ARCH stops the configure with one evgcheck sentence (cmake/
# evgcheck_program.cmake), before any compiler prints upstream's template errors; the right ARCH configures.
#   run.sh <evgcheck build dir> <catlass checkout>
set -euo pipefail
build=$(cd "$1" && pwd) catlass=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "arch_mismatch: $*" >&2; exit 1; }
# configure <name> <source> <ARCH>: prints the configure's output as one line; its status is cmake's
configure() {
  local status=0
  mkdir -p "$tmp/$1"
  cp "$2" "$tmp/$1/main.cpp"
  cat > "$tmp/$1/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.25)
project($1 LANGUAGES CXX)
find_package(evgcheck CONFIG REQUIRED)
evgcheck_add_program(prog SOURCES main.cpp CATLASS_ROOT "$catlass" ARCH $3)
CM
  # CMake wraps a message's lines: one line, single blanks.
  cmake -S "$tmp/$1" -B "$tmp/$1/build" -G Ninja -Devgcheck_DIR="$build/package" > "$tmp/$1.log" 2>&1 || status=$?
  tr '\n' ' ' < "$tmp/$1.log" | tr -s ' '
  return "$status"
}
evg="$catlass/examples/64_ascend950_matmul_evg/matmul_evg_add.cpp"

# An EVG example (Arch::Ascend950, catlass/epilogue/fusion) built for AtlasA2.
if out=$(configure evg_on_a2 "$evg" AtlasA2); then fail "an EVG program configured with ARCH AtlasA2"; fi
echo "$out" | grep -q "evgcheck: .*main.cpp is written for Ascend950 (it names Arch::Ascend950, never Arch::AtlasA2), but prog is built with ARCH AtlasA2: pass ARCH Ascend950" ||
  fail "no evgcheck sentence for an Ascend950 program on AtlasA2: $out"

# An AtlasA2 program (its ArchTag) built for Ascend950.
sed 's/Arch::Ascend950/Arch::AtlasA2/g' "$evg" > "$tmp/a2.cpp"
if out=$(configure a2_on_950 "$tmp/a2.cpp" Ascend950); then fail "an AtlasA2 program configured with ARCH Ascend950"; fi
echo "$out" | grep -q "is written for AtlasA2 (it names Arch::AtlasA2, never Arch::Ascend950)" || fail "no sentence: $out"

# EVG on AtlasA2 even when the tag is not spelled out (a comment naming the other chip does not count).
sed 's/Arch::Ascend950/MyArch/g; 1i // ported from Arch::Ascend950' "$evg" > "$tmp/evg_untagged.cpp"
if out=$(configure evg_untagged "$tmp/evg_untagged.cpp" AtlasA2); then fail "EVG configured with ARCH AtlasA2"; fi
echo "$out" | grep -q "uses upstream's EVG (catlass/epilogue/fusion), which Catlass builds for Ascend950 only" ||
  fail "no EVG sentence: $out"

# The right chip configures.
out=$(configure evg_on_950 "$evg" Ascend950) || fail "the EVG example does not configure with ARCH Ascend950: $out"
echo "arch_mismatch: three wrong ARCH choices stopped with evgcheck's sentence; the right one configures"
