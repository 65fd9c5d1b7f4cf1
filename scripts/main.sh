#!/usr/bin/env bash
# The README's main job: installs dependencies, builds, and runs the machine's demo kernel with its check report.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target evgcheck-demo
mkdir -p out
exec build/release/tools/evgcheck-demo out/evgcheck-demo-report.json
