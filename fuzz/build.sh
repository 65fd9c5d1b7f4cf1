#!/usr/bin/env bash
# Builds every fuzz target of fuzz/ as a libFuzzer binary, the OSS-Fuzz way: the compiler, its flags and the
# fuzzing engine come from the environment, and $OUT receives, per target <name>:
#   <name>                     the fuzzer binary
#   <name>_seed_corpus.zip     fuzz/corpus/<name>/ and fuzz/regressions/<name>/
#   <name>.dict, <name>.options   when the target has them (fuzz/targets/<name>.dict; the TIMEOUT of
#                              evg_fuzz_target becomes `timeout` in [libfuzzer])
# Environment (OSS-Fuzz and ClusterFuzzLite set all of them; the defaults are for a local run):
#   CC, CXX                  clang-14, clang++-14
#   CFLAGS, CXXFLAGS         -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined,fuzzer-no-link
#   LIB_FUZZING_ENGINE       -fsanitize=fuzzer
#   OUT                      ./out/fuzz
#   WORK                     the build folder (default: build/oss-fuzz)
#   JOBS                     parallel compile jobs (default 2)
#   EVG_FUZZ_TARGETS         the targets to build, space-separated (default: every registered target)
# Usage: fuzz/build.sh        (from anywhere; OSS-Fuzz's build.sh is one line: `$SRC/evgcheck/fuzz/build.sh`)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
: "${CC:=clang-14}"
: "${CXX:=clang++-14}"
: "${CFLAGS:=-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined,fuzzer-no-link}"
: "${CXXFLAGS:=-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined,fuzzer-no-link}"
: "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}"
: "${OUT:=$PWD/out/fuzz}"
: "${WORK:=$ROOT/build/oss-fuzz}"
: "${JOBS:=2}"
mkdir -p "$OUT" "$WORK"
OUT="$(cd "$OUT" && pwd)"

# EVG_FUZZ=ON with EVG_FUZZ_ENGINE set: the flags come from CXXFLAGS (not added again) and the targets link
# with LIB_FUZZING_ENGINE. Warnings stay warnings: another clang may warn where clang 14 does not.
cmake -S "$ROOT" -B "$WORK" -G Ninja \
  -DCMAKE_BUILD_TYPE=None \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DEVG_FUZZ=ON -DEVG_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" -DEVG_WERROR=OFF >/dev/null

mapfile -t targets < "$WORK/fuzz/targets.txt"
if [ -n "${EVG_FUZZ_TARGETS:-}" ]; then
  read -r -a targets <<<"$EVG_FUZZ_TARGETS"
fi
if [ ${#targets[@]} -eq 0 ]; then
  echo "fuzz/build.sh: no fuzz target is registered (evg_fuzz_target in fuzz/CMakeLists.txt)" >&2
  exit 1
fi
cmake --build "$WORK" -j "$JOBS" --target "${targets[@]/#/fuzz_}"

zip_folder() {  # zip_folder ARCHIVE DIR...: the files of the DIRs, flat, in one archive
  local archive="$1"; shift
  rm -f "$archive"
  local files=()
  for d in "$@"; do
    [ -d "$d" ] || continue
    while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$d" -maxdepth 1 -type f ! -name '.*' -print0)
  done
  [ ${#files[@]} -eq 0 ] && return 0
  if command -v zip >/dev/null; then
    zip -q -j "$archive" "${files[@]}"
  else
    python3 - "$archive" "${files[@]}" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for f in sys.argv[2:]:
        z.write(f, os.path.basename(f))
PY
  fi
}

for t in "${targets[@]}"; do
  cp "$WORK/fuzz/fuzz_$t" "$OUT/$t"
  zip_folder "$OUT/${t}_seed_corpus.zip" "$ROOT/fuzz/corpus/$t" "$ROOT/fuzz/regressions/$t"
  [ -f "$ROOT/fuzz/targets/$t.dict" ] && cp "$ROOT/fuzz/targets/$t.dict" "$OUT/$t.dict"
  [ -f "$WORK/fuzz/fuzz_$t.options" ] && cp "$WORK/fuzz/fuzz_$t.options" "$OUT/$t.options"
  echo "fuzz/build.sh: $OUT/$t"
done
