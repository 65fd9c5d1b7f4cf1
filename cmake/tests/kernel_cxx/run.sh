#!/bin/sh
# cmake/evgcheck_kernel_cxx.sh's argument rewriting, with stand-in compilers that print the arguments they are
# given: what each kernel compiler family keeps of the project's flags (test kernel_cxx_rewrites_flags).
set -eu
wrapper=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '#!/bin/sh\nprintf "%%s\\n" "$@"\n' >"$dir/print"
chmod +x "$dir/print"
ln -s "$dir/print" "$dir/g++-12"
ln -s "$dir/print" "$dir/clang++-14"
flags="-O2 -fsanitize=fuzzer-no-link,address,undefined -fsanitize-coverage-ignorelist=x.txt -fno-tree-sra -fmax-errors=0 -c a.cpp"
fail=0
expect() {  # expect <kernel compiler> <the arguments it must get, one line>
  # shellcheck disable=SC2086 # the flags are words
  got=$("$wrapper" "$dir/$1" -- /usr/bin/c++ $flags | paste -sd' ' -)
  if [ "$got" != "$2" ]; then
    echo "$1: got '$got', expected '$2'" >&2
    fail=1
  fi
}
# GCC: no libFuzzer instrumentation (its sanitizer list loses fuzzer-no-link, the coverage options go), the rest
# kept.
expect g++-12 "-O2 -fsanitize=address,undefined -fno-tree-sra -fmax-errors=0 -c a.cpp"
# Clang: everything but GCC's -fno-tree-sra, the error limit in Clang's spelling, and unknown warning options
# silenced.
expect clang++-14 "-Wno-unknown-warning-option -O2 -fsanitize=fuzzer-no-link,address,undefined -fsanitize-coverage-ignorelist=x.txt -ferror-limit=0 -c a.cpp"
# A sanitizer list of libFuzzer alone leaves nothing for GCC.
flags="-fsanitize=fuzzer-no-link -c a.cpp"
expect g++-12 "-c a.cpp"
[ "$fail" = 0 ] && echo "kernel_cxx: the flags each compiler keeps are as expected"
exit "$fail"
