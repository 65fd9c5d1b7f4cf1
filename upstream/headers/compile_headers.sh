#!/usr/bin/env bash
# Compiles every header of a Catlass checkout, each in its own translation unit, as bisheng would compile it for
# one chip, with each compiler given: kernel_operator.h ahead of the unit, __NPU_ARCH__ / CATLASS_ARCH set, the
# checkout's include folder, and evgcheck's stand-ins for upstream's device adapters ahead of it (docs/
# ascendc-device-environment.md). Prints one line per failing header and a table of counts; exits 1 when a
# header of the chosen set fails to compile.
#
# A header that GCC rejects only because it explicitly specialises a member template inside its class
# ("explicit specialization in non-namespace scope", which GCC does not implement; clang does) is counted as
# "GCC limitation", not as a failure, provided that clang compiles it in the same run. A header that compiles
# only with __DAV_CUBE__ and with __DAV_VEC__ defined (the AscendC compiler's AIC and AIV passes of a mixed
# kernel, which evgcheck's one build does not make) is counted as "core-pass", not as a failure.
#
# --units together (set evg only) compiles, per compiler and chip, one translation unit: the EVG examples' own
# catlass/ and tla/ include lines, which reach every header of the set (the set is their closure). Every header is
# then compiled once (the include lines sorted by name): the same check that each one compiles
# against evgcheck's AscendC layer, at the cost of one unit instead of one or more per header. It does not show
# that a header compiles alone (upstream's concern, not a failure here: see "in-includer"). A compiler and chip
# whose unit fails are run again header by header, as with --units each (the default), so that a failure names
# its header and its kind.
#
# usage: compile_headers.sh --root CATLASS_ROOT --set evg|all --archs "2201 3510" --compilers "g++ clang++-14"
#                           [--units each|together] [--jobs N] [--work DIR] -- <flags for our side: -I ...>
set -euo pipefail
root="" set_name="evg" archs="2201 3510" compilers="g++ clang++-14" jobs=2 work="" units=each
while [[ $# -gt 0 ]]; do
  case "$1" in
    --root) root=$2; shift 2 ;;
    --set) set_name=$2; shift 2 ;;
    --archs) archs=$2; shift 2 ;;
    --compilers) compilers=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --units) units=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "compile_headers.sh: unknown option '$1' (see the usage line at the top of the script)" >&2; exit 2 ;;
  esac
done
our_flags=("$@")
if [[ "$units" != each && "$units" != together ]]; then
  echo "compile_headers.sh: --units is 'each' or 'together', not '$units'" >&2
  exit 2
fi
if [[ "$units" == together && "$set_name" != evg ]]; then
  echo "compile_headers.sh: --units together needs --set evg (the unit is the EVG examples' include lines)" >&2
  exit 2
fi
if [[ ! -f "$root/include/catlass/catlass.hpp" ]]; then
  echo "compile_headers.sh: '$root' is not a Catlass checkout (no include/catlass/catlass.hpp)" >&2
  exit 2
fi
[[ -n "$work" ]] || work=$(mktemp -d)
mkdir -p "$work"
here=$(cd "$(dirname "$0")" && pwd)
standins=$(cd "$here/../../lib/ascendc/standins" && pwd)

# The headers: every .hpp under include/catlass and include/tla, or the closure of what the seven EVG
# examples include (their catlass/ and tla/ include lines, and everything those reach).
all_list="$work/all.txt"
(cd "$root/include" && find catlass tla -name '*.hpp' | LC_ALL=C sort) > "$all_list"
list="$all_list"
if [[ "$set_name" == "evg" ]]; then
  examples=("$root"/examples/64_ascend950_matmul_evg/*.cpp)
  if [[ ! -f "${examples[0]}" ]]; then
    echo "compile_headers.sh: no EVG examples under $root/examples/64_ascend950_matmul_evg" >&2
    exit 2
  fi
  grep -hoE '#include "(catlass|tla)/[^"]+"' "${examples[@]}" | LC_ALL=C sort -u > "$work/evg_roots.cpp"
  g++ -std=c++20 -M -DCATLASS_ARCH=3510 -D__NPU_ARCH__=3510 -DK_MAX_SHAPE_DIM=0 -include kernel_operator.h \
    "${our_flags[@]}" -I "$standins" -isystem "$root/include" "$work/evg_roots.cpp" 2>/dev/null |
    tr ' \\' '\n\n' | grep -F "$root/include/" | sed "s|^.*$root/include/||" | LC_ALL=C sort -u > "$work/evg.txt"
  # upstream's own device adapters are replaced by the stand-ins; count them from the include lines.
  grep -oE '(catlass|tla)/[^"]+' "$work/evg_roots.cpp" | while read -r h; do
    if [[ -f "$standins/$h" ]]; then echo "$h"; fi
  done >> "$work/evg.txt"
  LC_ALL=C sort -u -o "$work/evg.txt" "$work/evg.txt"
  list="$work/evg.txt"
fi
n=$(wc -l < "$list")

# kernel_operator.h, which every unit includes first, is about 60% of a unit's time: it is compiled once per
# compiler and chip into a precompiled header, which a unit reads in its place (the same text under the same
# flags). A precompiled header that does not build, or that a unit of a header-free file cannot use, is
# removed and the units include kernel_operator.h itself.
kernel_operator=""
for f in "${our_flags[@]}"; do
  if [[ "$f" == -I* && -f "${f#-I}/kernel_operator.h" ]]; then kernel_operator="${f#-I}/kernel_operator.h"; break; fi
done
pch_dir() { echo "$work/pch/$(basename "$1")-$2"; }  # compiler arch
include_flags() {  # compiler arch -> the flags that put kernel_operator.h ahead of a unit
  local d; d=$(pch_dir "$1" "$2")
  if [[ -f "$d/kernel_operator.h.gch" ]]; then echo "-include $d/kernel_operator.h"
  elif [[ -f "$d/kernel_operator.h.pch" ]]; then echo "-include-pch $d/kernel_operator.h.pch"
  else echo "-include kernel_operator.h"; fi
}
# compiles one translation unit; 0 when it compiled
compile_tu() {  # compiler arch tu log
  # shellcheck disable=SC2046
  "$1" -std=c++20 -fsyntax-only -DCATLASS_ARCH="$2" -D__NPU_ARCH__="$2" $(include_flags "$1" "$2") \
    "${our_flags[@]}" -I "$standins" -isystem "$root/include" "$3" > "$4" 2>&1
}
make_pch() {  # compiler arch
  local cxx=$1 arch=$2 d ext=pch
  [[ -n "$kernel_operator" ]] || return 0
  d=$(pch_dir "$cxx" "$arch")
  [[ "$(basename "$cxx")" == g++* ]] && ext=gch
  rm -rf "$d" && mkdir -p "$d"
  "$cxx" -std=c++20 -DCATLASS_ARCH="$arch" -D__NPU_ARCH__="$arch" "${our_flags[@]}" -I "$standins" \
    -isystem "$root/include" -x c++-header "$kernel_operator" -o "$d/kernel_operator.h.$ext" > "$d/build.log" 2>&1 ||
    rm -f "$d/kernel_operator.h.$ext"
  echo "" > "$d/empty.cpp"
  compile_tu "$cxx" "$arch" "$d/empty.cpp" "$d/empty.log" || rm -f "$d/kernel_operator.h.$ext"
}
# compiles one translation unit in one of the AscendC compiler's per-core-type passes (a macro of the pass:
# __DAV_CUBE__ for the AIC, __DAV_VEC__ for the AIV), without the precompiled header (made outside any pass)
compile_tu_pass() {  # compiler arch tu log macro
  "$1" -std=c++20 -fsyntax-only -DCATLASS_ARCH="$2" -D__NPU_ARCH__="$2" -D"$5" -include kernel_operator.h \
    "${our_flags[@]}" -I "$standins" -isystem "$root/include" "$3" > "$4" 2>&1
}
only_cwg727() {  # log: GCC's first error is "explicit specialization in non-namespace scope" (the rest follow)
  grep -m1 'error:' "$1" | grep -q 'explicit specialization in non-namespace scope'
}

compile_one() {  # compiler arch header -> prints "ok|context|gcclimit|standin|fail compiler arch header"
  local cxx=$1 arch=$2 h=$3 tu out includer name
  name=$(basename "$cxx")  # results name the compiler by its file name (g++, clang++-14), whatever its path
  if [[ -f "$standins/$h" ]]; then echo "standin $name $arch $h"; return; fi
  tu="$work/tu_$(echo "$name-$arch-$h" | tr '/.+' '___').cpp"
  out="${tu%.cpp}.log"
  echo "#include \"$h\"" > "$tu"
  if compile_tu "$cxx" "$arch" "$tu" "$out"; then echo "ok $name $arch $h"; return; fi
  if [[ "$name" == g++* ]] && only_cwg727 "$out"; then echo "gcclimit $name $arch $h"; return; fi
  # Not self-contained: compiles inside a header of the checkout that includes it.
  while read -r includer; do
    includer=${includer#"$root/include/"}
    [[ "$includer" != "$h" ]] || continue
    printf '#include "%s"\n#include "%s"\n' "$includer" "$h" > "${tu%.cpp}_ctx.cpp"
    if compile_tu "$cxx" "$arch" "${tu%.cpp}_ctx.cpp" "${tu%.cpp}_ctx.log"; then
      echo "context $name $arch $h $includer"; return
    fi
    if [[ "$name" == g++* ]] && only_cwg727 "${tu%.cpp}_ctx.log"; then echo "gcclimit $name $arch $h"; return; fi
  done < <(grep -rlF "#include \"$h\"" "$root/include" | LC_ALL=C sort | head -3)
  # Written for the compiler's per-core-type passes: it compiles in both (the AIC's and the AIV's), which
  # evgcheck's one build of a kernel does not make (docs/ascendc-device-environment.md).
  if compile_tu_pass "$cxx" "$arch" "$tu" "${tu%.cpp}_cube.log" __DAV_CUBE__ &&
     compile_tu_pass "$cxx" "$arch" "$tu" "${tu%.cpp}_vec.log" __DAV_VEC__; then
    echo "corepass $name $arch $h"; return
  fi
  echo "fail $name $arch $h"
}
export -f compile_one compile_tu compile_tu_pass only_cwg727 include_flags pch_dir
export work standins root
export our_flags_str="${our_flags[*]}"
# With --units together, a compiler and chip whose one unit compiles is done ("together" for every header that
# is not stood in); the others go header by header.
: > "$work/results.txt"
each=()
for cxx in $compilers; do for arch in $archs; do
  name=$(basename "$cxx")
  if [[ "$units" == together ]]; then
    log="$work/together_$name-$arch.log"
    if compile_tu "$cxx" "$arch" "$work/evg_roots.cpp" "$log"; then
      while read -r h; do
        if [[ -f "$standins/$h" ]]; then echo "standin $name $arch $h"; else echo "together $name $arch $h"; fi
      done < "$list" >> "$work/results.txt"
      continue
    fi
    echo "$name $arch: the EVG examples' include lines do not compile in one unit ($(grep -m1 'error:' "$log" ||
      echo 'see the log')) [$log]; each header alone:"
  fi
  make_pch "$cxx" "$arch"
  each+=("$cxx $arch")
done; done
# shellcheck disable=SC2016
for pair in ${each[@]+"${each[@]}"}; do while read -r h; do echo "$pair $h"; done < "$list"; done |
  xargs -r -P "$jobs" -L 1 bash -c 'our_flags=($our_flags_str); compile_one "$0" "$1" "$2"' >> "$work/results.txt"

# A header that fails for one chip and compiles for the other with the same compiler is the other chip's
# (upstream keeps Ascend950-only names such as MX_SCALE_GROUP_NUM under CATLASS_ARCH == 3510): "other-chip".
while read -r _ cxx arch h; do
  for other in $archs; do
    [[ "$other" != "$arch" ]] || continue
    if awk -v c="$cxx" -v a="$other" -v h="$h" '($1 == "ok" || $1 == "context" || $1 == "together") && $2 == c && \
           $3 == a && $4 == h \
           { found = 1 } END { exit !found }' "$work/results.txt"; then
      sed -i "s|^fail $cxx $arch $h\$|otherchip $cxx $arch $h|" "$work/results.txt"
    fi
  done
done < <(grep '^fail ' "$work/results.txt")

status=0
printf '%-14s %-5s %8s %8s %8s %14s %12s %11s %10s %9s %5s\n' compiler arch compiled together failed "gcc-limit(*)" \
  "in-includer" "other-chip" "core-pass" stood-in of
for cxx_path in $compilers; do cxx=$(basename "$cxx_path"); for arch in $archs; do
  r() { grep -c "^$1 $cxx $arch " "$work/results.txt" || true; }
  ok=$(r ok) tog=$(r together) fail=$(r fail) lim=$(r gcclimit) ctx=$(r context) oc=$(r otherchip) cp=$(r corepass)
  si=$(r standin)
  printf '%-14s %-5s %8s %8s %8s %14s %12s %11s %10s %9s %5s\n' "$cxx" "$arch" "$ok" "$tog" "$fail" "$lim" "$ctx" "$oc" \
    "$cp" "$si" "$n"
  [[ "$fail" == 0 ]] || status=1
done; done
# A GCC limitation counts only when clang compiled the same header for the same chip.
while read -r _ cxx arch h; do
  if ! grep -qE "^(ok|context|corepass|together) clang[^ ]* $arch $h( |\$)" "$work/results.txt"; then
    echo "FAIL $cxx $arch $h: GCC cannot compile it (explicit specialisation in class scope) and no clang run compiled it"
    status=1
  fi
done < <(grep '^gcclimit ' "$work/results.txt")
echo "(*) explicit specialisation of a member template in class scope: GCC 12 rejects it, clang compiles it"
echo "together: compiled in one unit with the rest of the set (--units together), not shown to compile alone"
echo "in-includer: the header is not self-contained (upstream); it compiles inside the checkout's header that includes it"
echo "core-pass: the header compiles only in the AscendC compiler's per-core-type passes (__DAV_CUBE__ and __DAV_VEC__"
echo "  each defined), which evgcheck's build of a kernel does not make:"
grep '^corepass ' "$work/results.txt" | awk '{print "  " $2 " " $3 " " $4}' || true
echo "other-chip: the header compiles for the other chip only (it uses names upstream defines for that chip):"
grep '^otherchip ' "$work/results.txt" | awk '{print "  " $2 " " $3 " " $4}' || true
while read -r _ cxx arch h; do
  log="$work/tu_$(echo "$cxx-$arch-$h" | tr '/.+' '___').log"
  echo "FAIL $cxx $arch $h: $(grep -m1 'error:' "$log" || echo 'see the log') [$log]"
done < <(grep '^fail ' "$work/results.txt")
echo "headers: $set_name set, $n of $(wc -l < "$all_list") in the checkout; work folder $work"
exit $status
