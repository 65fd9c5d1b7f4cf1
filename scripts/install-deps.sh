#!/usr/bin/env bash
# Installs the Debian packages evgcheck builds against. Idempotent; silent when all are present.
set -euo pipefail
packages=(
  build-essential cmake ninja-build g++ clang-14 clang-format-14 clang-tidy-14
  libclang-rt-14-dev  # clang-14's libFuzzer runtime (the fuzz preset: fuzz/README.md)
  libgtest-dev libgmock-dev librapidcheck-dev libbenchmark-dev libeigen3-dev libfmt-dev
  nlohmann-json3-dev
  libgcc-12-dev libdw-dev  # libbacktrace and libdw: a program's call chains resolve in the process (lib/hw/src/call_chain.cpp)
  valgrind  # valgrind/valgrind.h: a core's stack refill knows when it runs under memcheck (lib/hw/src/fiber.cpp)
  chromium  # the report-html test opens the conformance report in headless Chromium
  lld  # LLVM's linker, which the build links with (CMakeLists.txt, EVG_LLD): a third of GNU ld's time
  ccache  # the compiler cache scripts/test.sh uses for the build and for what the tests compile at run time
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
