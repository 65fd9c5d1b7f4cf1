# Sourced by scripts/test.sh, scripts/sanitize.sh and scripts/lint.sh: `phase NAME COMMAND...` runs COMMAND and
# prints the phase's wall time; `phases_summary` prints every phase's time at the end (also when a phase
# failed). `use_compiler_cache` sets up ccache when it is installed (scripts/install-deps.sh installs it).
phase_lines=()
phase() {
  local name=$1 start status=0
  shift
  start=$(date +%s)
  echo "== $name: $*"
  "$@" || status=$?
  local secs=$(($(date +%s) - start))
  phase_lines+=("$(printf '%-10s %4d s%s' "$name" "$secs" "$([ "$status" -eq 0 ] || echo " (exit $status)")")")
  echo "== $name: ${secs} s"
  return "$status"
}
phases_summary() {
  echo "== phases:"
  local l
  for l in "${phase_lines[@]}"; do echo "   $l"; done
}

# When ccache is installed (and EVG_CCACHE is not 0): every compile goes through it, the build's (the cmake
# arguments in $compiler_cache_args) and those at run time, which inherit CMAKE_CXX_COMPILER_LAUNCHER: the
# libraries `evgcheck check --catlass-root` and the tests compile against a Catlass checkout, and the
# programs of evgcheck_add_program. Says which cache and how full it is. The sloppiness lets ccache serve
# compiles that use a precompiled header (every test file does: cmake/evg_test.cmake). Without ccache the
# launcher is cleared, so that a build folder configured with it still builds.
compiler_cache_args=()
use_compiler_cache() {
  if [ "${EVG_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
    export CMAKE_CXX_COMPILER_LAUNCHER=ccache
    export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
    compiler_cache_args=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    echo "== compiler cache: $(ccache --version | head -1), $(ccache --get-config cache_dir)" \
         "($(ccache --get-config max_size) at most; EVG_CCACHE=0 to go without)"
  else
    unset CMAKE_CXX_COMPILER_LAUNCHER
    compiler_cache_args=(-DCMAKE_CXX_COMPILER_LAUNCHER=)
    echo "== compiler cache: none ($( [ "${EVG_CCACHE:-1}" = 0 ] && echo "EVG_CCACHE=0" || echo "ccache is not installed"))"
  fi
}
