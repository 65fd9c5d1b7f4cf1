#!/usr/bin/env bash
# The README's main job: installs dependencies, builds evgcheck, and runs the conformance catalogue on AtlasA2
# and Ascend950, writing the report to out/conformance (report.html, report.md, report.json, junit.xml). The
# catalogue holds the controls that prove every checker and judge rule alive (docs/hazards.md, "Controls").
# When the build has a Catlass checkout (the first of EVG_CATLASS_ROOTS, by default ../shared/upstream/catlass:
# cmake/evg_upstream.cmake), the node suite also runs on upstream's own nodes from it, side by side, under
# every block-mmad configuration family (`--catlass-root`; the first run compiles the other families' 143 cells,
# about 21 minutes on 2 cores, cached in ~/.cache/evgcheck/upstream).
# Exit code: 0 when no case failed and every control fired, 1 otherwise. Extra arguments go to `evgcheck
# conformance`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
source scripts/phases.sh
use_compiler_cache  # the build and the run-time cells' compiles
cmake --preset release "${compiler_cache_args[@]}" ${EVG_CATLASS_ROOTS:+-DEVG_CATLASS_ROOTS="$EVG_CATLASS_ROOTS"} >/dev/null
root=$(sed -n 's/^EVG_CATLASS_ROOTS:STRING=//p' build/release/CMakeCache.txt | cut -d';' -f1)
upstream=()
targets=(evgcheck)
if [[ -n "$root" && -f "$root/include/catlass/catlass.hpp" ]]; then
  upstream=(--catlass-root "$root")
  # The configuration families other than the default are compiled at run time against the build folder's
  # package (upstream/conformance/upstream_conformance.hpp): the libraries it exports.
  targets+=(evg_vocab evg_hw evg_ascendc evg_ascendc_device_AtlasA2 evg_ascendc_device_Ascend950)
fi
cmake --build --preset release --target "${targets[@]}"
exec build/release/tools/evgcheck conformance --out out/conformance "${upstream[@]}" "$@"
