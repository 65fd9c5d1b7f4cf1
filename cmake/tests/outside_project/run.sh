#!/usr/bin/env bash
# Builds and runs the outside project (this folder) from a temporary folder, getting evgcheck one way:
#   run.sh package <evgcheck build dir> <catlass checkout>      installs the build into a temporary prefix first
#   run.sh subdirectory <evgcheck source dir> <catlass checkout>
set -euo pipefail
mode=$1 where=$2 catlass=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$here"/CMakeLists.txt "$here"/scale_rows.cpp "$tmp"/
if [[ "$mode" == package ]]; then
  cmake --install "$where" --prefix "$tmp/prefix" > "$tmp/install.log"
  cmake -S "$tmp" -B "$tmp/build" -G Ninja -DEVGCHECK_FROM=package -DCMAKE_PREFIX_PATH="$tmp/prefix" \
        -DCATLASS_ROOT="$catlass" -DCMAKE_BUILD_TYPE=Release > "$tmp/configure.log"
else
  cmake -S "$tmp" -B "$tmp/build" -G Ninja -DEVGCHECK_FROM=subdirectory -DEVGCHECK_SOURCE_DIR="$where" \
        -DCATLASS_ROOT="$catlass" -DCMAKE_BUILD_TYPE=Release > "$tmp/configure.log"
fi
cmake --build "$tmp/build" --target scale_rows -j2 > "$tmp/build.log" || { cat "$tmp/build.log"; exit 1; }
"$tmp/build/scale_rows"
