#!/bin/sh
# The compiler launcher evgcheck_use_catlass (cmake/evgcheck_program.cmake) sets on a target whose kernel code
# is built by another compiler than the project's (KERNEL_COMPILER): CMake runs
#   evgcheck_kernel_cxx.sh <kernel compiler> [<launcher>...] -- <project compiler> <arguments...>
# and this runs `[<launcher>...] <kernel compiler> <arguments...>`, leaving out the flags the kernel compiler does
# not know (GCC's -fno-tree-sra, which evgcheck_use_catlass only adds for GCC; a project's own GCC-only warning
# flags are silenced by -Wno-unknown-warning-option when the kernel compiler is Clang) and giving Clang GCC's
# -fmax-errors=N as its own -ferror-limit=N (Clang takes GCC's spelling without a word and keeps its limit of
# 20 errors; evgcheck's LibraryCache::report_every_error asks for no limit). For GCC it leaves out
# Clang's libFuzzer instrumentation (the fuzz preset's -fsanitize=fuzzer-no-link and its
# -fsanitize-coverage-* options): GCC has none, and kernel code it builds is a second build for comparison,
# never a fuzz target; the other sanitizers stay.
set -eu
if [ "$#" -lt 3 ]; then
  echo "evgcheck_kernel_cxx.sh: usage: <kernel compiler> [<launcher>...] -- <project compiler> <arguments...>" >&2
  exit 2
fi
kernel=$1
shift
launcher=""
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
  launcher="$launcher $1"
  shift
done
if [ "$#" -lt 2 ]; then
  echo "evgcheck_kernel_cxx.sh: no '--' and project compiler after the kernel compiler '$kernel'" >&2
  exit 2
fi
shift 2  # "--" and the project's compiler
is_clang=0
case "$(basename "$kernel")" in
  clang*) is_clang=1 ;;
esac
# Rebuild the argument list without the flags the kernel compiler does not take.
for a in "$@"; do
  shift
  case "$a" in
    -fno-tree-sra) [ "$is_clang" = 1 ] && continue ;;
    -fmax-errors=*) [ "$is_clang" = 1 ] && a="-ferror-limit=${a#-fmax-errors=}" ;;
    -fsanitize-coverage-*) [ "$is_clang" = 0 ] && continue ;;
    -fsanitize=*)
      if [ "$is_clang" = 0 ]; then
        kept=$(printf '%s\n' "${a#-fsanitize=}" | tr ',' '\n' | grep -v '^fuzzer' | paste -sd, -) || true
        [ -z "$kept" ] && continue
        a="-fsanitize=$kept"
      fi
      ;;
  esac
  set -- "$@" "$a"
done
if [ "$is_clang" = 1 ]; then
  set -- -Wno-unknown-warning-option "$@"
fi
# shellcheck disable=SC2086 # the launcher is a command line of its own words
exec $launcher "$kernel" "$@"
