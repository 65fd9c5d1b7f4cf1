#!/usr/bin/env bash
# Fails when a tracked C++ file does not match .clang-format, and names each such file (ctest: format_check).
set -euo pipefail
cd "$(dirname "$0")/.."
fmt=$(command -v clang-format-14 || command -v clang-format)
bad=$(git ls-files '*.cpp' '*.hpp' '*.h' | while read -r f; do
  "$fmt" --dry-run --Werror "$f" >/dev/null 2>&1 || echo "$f"
done)
if [ -n "$bad" ]; then
  echo "check-format: these files do not match .clang-format (fix: $fmt -i FILE):"
  echo "$bad"
  exit 1
fi
echo "check-format: $(git ls-files '*.cpp' '*.hpp' '*.h' | wc -l) files match .clang-format"
