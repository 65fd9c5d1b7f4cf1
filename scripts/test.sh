#!/usr/bin/env bash
# The README's test command: installs dependencies, builds (release preset, -j2) and runs every ctest label
# except `long`. Extra arguments go to ctest, e.g. `scripts/test.sh -L unit` or `scripts/test.sh -R Race`.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${EVG_PRESET:-release}
scripts/install-deps.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
ctest --preset "$preset" "$@"
