#!/usr/bin/env bash
# Runs clang-tidy-14 with the repository's .clang-tidy over first-party translation units of a configured
# build (default build/release; its compile_commands.json), two at a time. Exit 1 on any finding.
# Usage: scripts/tidy.sh [--record] [BUILD_DIR] [PATH_REGEX]
# Without PATH_REGEX it checks every first-party translation unit (about 300: lib/, oracle/, props/,
# conformance/, fuzz/, reports/, tools/, bench/, upstream/, docs/tests; not the corpus generated into the build
# folder): ctest `tidy_check` runs exactly that, so CI keeps the whole tree clean. About 20 CPU-minutes on a
# cold run on a fast machine (three times that on a slow one). A PATH_REGEX narrows it while fixing, e.g.
# `scripts/tidy.sh build/release '^oracle/'`.
#
# What a verdict depends on: the clang-tidy version, .clang-tidy, the command line and the preprocessed source
# (`clang++ -E`, about 0.4 s a unit against 2-30 s of tidy: every header the unit includes, with its path, is
# in it), with the checkout's own path written as <root> so that the key is the same in any clone. A unit
# whose key is known clean is not checked again; a unit with a finding is never remembered, so its finding
# is printed on every run. Two memories of clean keys:
#   BUILD_DIR/tidy-cache     this build's (one empty file per key; delete the folder to check everything)
#   .ci/tidy-clean.txt       the repository's, one line per unit ("<key> <path>"), written by `--record`
#                            from a run's clean units and committed: CI then checks only the units whose
#                            key changed since a developer's clean run. A stale line costs a check, never a
#                            finding: the key is the unit's whole input.
set -euo pipefail
cd "$(dirname "$0")/.."
record=0
if [ "${1:-}" = "--record" ]; then
  record=1
  shift
fi
build=${1:-build/release}
filter=${2:-.}
tidy=$(command -v clang-tidy-14 || command -v clang-tidy || true)
clang=$(command -v clang++-14 || command -v clang++ || true)
if [ -z "$tidy" ] || [ -z "$clang" ]; then
  echo "tidy: clang-tidy-14 and clang++-14 must be installed (scripts/install-deps.sh installs them)" >&2
  exit 2
fi
if [ ! -f "$build/compile_commands.json" ]; then
  echo "tidy: $build/compile_commands.json is missing: configure first (cmake --preset release)" >&2
  exit 2
fi
exec python3 scripts/tidy.py "$build" "$(pwd)" "$filter" "$tidy" "$clang" "$record"
