#!/usr/bin/env bash
# The README's test command: installs dependencies, configures and builds (release preset, -j2) and runs every
# ctest label except `long` and `lint` (scripts/lint.sh runs lint). Prints each phase (install, configure,
# build, test) with its wall time. Extra arguments go to ctest, e.g. `scripts/test.sh -L unit` or
# `scripts/test.sh -R Race`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/phases.sh
trap phases_summary EXIT
preset=${EVG_PRESET:-release}
phase install scripts/install-deps.sh
use_compiler_cache
configure() { cmake --preset "$preset" "${compiler_cache_args[@]}" >/dev/null; }
phase configure configure
phase build cmake --build --preset "$preset"
ctest_times_args "$preset"
phase test ctest --preset "$preset" "${ctest_args[@]}" "$@"
