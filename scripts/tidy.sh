#!/usr/bin/env bash
# Runs clang-tidy-14 with the repository's .clang-tidy over first-party translation units of a configured
# build (default build/release; its compile_commands.json), two at a time. Exit 1 on any finding.
# Usage: scripts/tidy.sh [BUILD_DIR] [PATH_REGEX]
# Without PATH_REGEX it checks every first-party translation unit (about 210: lib/, oracle/, props/,
# conformance/, fuzz/, reports/, tools/, bench/, docs/tests; not the corpus generated into the build folder):
# ctest `tidy_check` runs exactly that, so CI keeps the whole tree clean. About 20 CPU-minutes, so about 10
# minutes on 2 cores. A PATH_REGEX narrows it while fixing, e.g. `scripts/tidy.sh build/release '^oracle/'`.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
kept_clean='.'
filter=${2:-$kept_clean}
tidy=$(command -v clang-tidy-14 || command -v clang-tidy || true)
if [ -z "$tidy" ]; then
  echo "tidy: clang-tidy-14 is not installed (scripts/install-deps.sh installs it)" >&2
  exit 2
fi
if [ ! -f "$build/compile_commands.json" ]; then
  echo "tidy: $build/compile_commands.json is missing: configure first (cmake --preset release)" >&2
  exit 2
fi
root=$(pwd)
db=$(mktemp -d)
trap 'rm -rf "$db"' EXIT
# First-party sources only: not the generated corpus under the build folder. The commands go to a copy of the
# database without the precompiled-header options of the test binaries (cmake/evg_test.cmake): the header is
# GCC's, which clang cannot read, and each test file includes what it uses itself; nor the GCC-only warning
# switches that go with it (-Wno-stringop-*), which clang would reject as unknown.
files=$(python3 - "$build/compile_commands.json" "$root" "$filter" "$db/compile_commands.json" <<'PY'
import json, re, shlex, sys
entries = json.load(open(sys.argv[1]))
root, pattern = sys.argv[2], re.compile(sys.argv[3])
seen, kept = set(), []
for e in entries:
    f = e["file"]
    if not f.startswith(root + "/") or "/build/" in f[len(root):] or f in seen:
        continue
    rel = f[len(root) + 1:]
    if pattern.search(rel):
        seen.add(f)
        out = shlex.split(e["command"])
        # Drop each "-include <...>/cmake_pch.hxx" pair, -Winvalid-pch and -Wno-stringop-*; keep every other
        # -include.
        clean, i = [], 0
        while i < len(out):
            if out[i] == "-include" and i + 1 < len(out) and out[i + 1].endswith("cmake_pch.hxx"):
                i += 2
                continue
            if out[i] != "-Winvalid-pch" and not out[i].startswith("-Wno-stringop-"):
                clean.append(out[i])
            i += 1
        e = dict(e, command=shlex.join(clean))
        kept.append(e)
        print(rel)
json.dump(kept, open(sys.argv[4], "w"))
PY
)
count=$(printf '%s\n' "$files" | grep -c . || true)
[ "$count" -gt 0 ] || { echo "tidy: no translation unit matches '$filter'" >&2; exit 2; }
log=$db/log
status=0
printf '%s\n' "$files" | xargs -P 2 -I{} sh -c '"$0" -p "$1" --quiet "$2" 2>/dev/null || echo "tidy-failed: $2"' \
  "$tidy" "$db" {} >"$log" || status=$?
# A finding prints "file:line:col: error: message [check]" (WarningsAsErrors) or a warning line.
if grep -qE ': (warning|error): |^tidy-failed: ' "$log"; then
  grep -E ': (warning|error): |^tidy-failed: ' "$log" | sort -u
  echo "tidy: findings in $count translation units (checks: .clang-tidy)"
  exit 1
fi
[ "$status" -eq 0 ] || { cat "$log"; exit 1; }
echo "tidy: $count translation units clean"
