#!/usr/bin/env bash
# The sanitizer part of CI: the tests labelled `sanitize` (the model's and the AscendC layer's own tests, and
# upstream Catlass's example programs run directly) in the AddressSanitizer + UBSan build (preset debug). Builds
# only what they run (target evg_sanitize, cmake/evg_test.cmake), so that it fits beside the release tests and
# lint; `EVG_PRESET=debug scripts/test.sh` is the whole suite in that build. Prints each phase with its wall
# time. Extra arguments go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/phases.sh
trap phases_summary EXIT
phase install scripts/install-deps.sh
use_compiler_cache
configure() { cmake --preset debug "${compiler_cache_args[@]}" >/dev/null; }
phase configure configure
phase build cmake --build --preset debug --target evg_sanitize
phase sanitize ctest --preset debug -L sanitize "$@"
