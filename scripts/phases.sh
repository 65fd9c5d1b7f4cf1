# Sourced by scripts/test.sh, scripts/sanitize.sh and scripts/lint.sh: `phase NAME COMMAND...` runs COMMAND and
# prints the phase's wall time and CPU time (user + system of everything it ran); `phases_summary` prints every
# phase's times at the end (also when a phase failed). `use_compiler_cache` sets up ccache when it is installed
# (scripts/install-deps.sh installs it). With EVG_CPU_PROFILE=FILE, every compile and link of the build also
# appends its CPU seconds to FILE (scripts/cpu-time.sh), and the summary lists the 20 heaviest units and the 20
# longest tests: how the figures of docs/build-cost.md are measured.
phase_lines=()
# CPU seconds used so far by this shell's waited-for children: fields 16 and 17 of /proc/PID/stat, in ticks.
children_cpu() {
  local stat
  read -r -a stat </proc/$$/stat
  awk -v u="${stat[15]}" -v s="${stat[16]}" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.0f", (u + s) / hz }'
}
phase() {
  local name=$1 start cpu_start status=0
  shift
  start=$(date +%s)
  cpu_start=$(children_cpu)
  echo "== $name: $*"
  "$@" || status=$?
  local secs=$(($(date +%s) - start)) cpu=$(($(children_cpu) - cpu_start))
  phase_lines+=("$(printf '%-10s %5d s wall %6d CPU-s%s' "$name" "$secs" "$cpu" \
                  "$([ "$status" -eq 0 ] || echo " (exit $status)")")")
  echo "== $name: ${secs} s wall, ${cpu} CPU-s"
  return "$status"
}
# The first 20 lines of the input, indented, reading all of it: `head` would stop reading, and the command
# writing into the pipe would die of SIGPIPE, which pipefail makes the script's exit status (141).
first_20() { sed -n '1,20s/^/   /p'; }
phases_summary() {
  echo "== phases:"
  local l
  for l in "${phase_lines[@]}"; do echo "   $l"; done
  if [ -n "${EVG_CPU_PROFILE:-}" ] && [ -s "$EVG_CPU_PROFILE" ]; then
    echo "== the 20 heaviest compile and link steps (CPU-s, wall s, output), of $(wc -l <"$EVG_CPU_PROFILE") in" \
         "$(awk '{ n += $1 } END { printf "%.0f", n }' "$EVG_CPU_PROFILE") CPU-s:"
    sort -rn "$EVG_CPU_PROFILE" | first_20
  fi
  # ctest's JUnit file of this run (ctest_times_args): LastTest.log is no record, a test that runs ctest in the
  # build folder writes its own over it.
  if [ -n "${EVG_CPU_PROFILE:-}" ] && [ -s "${ctest_times:-}" ]; then
    echo "== the 20 longest tests (wall s, two at a time):"
    grep -o '<testcase name="[^"]*" classname="[^"]*" time="[^"]*"' "$ctest_times" |
      sed -E 's/<testcase name="([^"]*)".* time="([^"]*)"/\2 \1/' | sort -rn | first_20
  fi
}

# When ccache is installed (and EVG_CCACHE is not 0): every compile goes through it, the build's (the cmake
# arguments in $compiler_cache_args) and those at run time, which inherit CMAKE_CXX_COMPILER_LAUNCHER: the
# libraries `evgcheck check --catlass-root` and the tests compile against a Catlass checkout, and the
# programs of evgcheck_add_program. Says which cache and how full it is. The sloppiness lets ccache serve
# compiles that use a precompiled header (every test file does: cmake/evg_test.cmake). Without ccache the
# launcher is cleared, so that a build folder configured with it still builds.
# With EVG_CPU_PROFILE=FILE, scripts/cpu-time.sh goes in front (and FILE is emptied): a profile measures a whole
# build, so the changed launcher makes the build folder compile everything again. No CCACHE_BASEDIR: it would
# write paths relative to the build folder into __FILE__, whose lines the findings read back from their files.
# ctest_times_args PRESET: the ctest arguments that write the run's test times (a JUnit file) for the summary.
ctest_times=
ctest_times_args() {
  ctest_times=$PWD/build/$1/Testing/test-times.xml
  rm -f "$ctest_times"
  ctest_args=(--output-junit "$ctest_times")
}

compiler_cache_args=()
use_compiler_cache() {
  local launcher=()
  if [ -n "${EVG_CPU_PROFILE:-}" ]; then
    EVG_CPU_PROFILE=$(realpath -m "$EVG_CPU_PROFILE")
    if ! : 2>/dev/null >"$EVG_CPU_PROFILE"; then
      echo "EVG_CPU_PROFILE=$EVG_CPU_PROFILE: cannot write that file (its folder must exist)" >&2
      exit 2
    fi
    export EVG_CPU_LOG=$EVG_CPU_PROFILE
    launcher+=("$PWD/scripts/cpu-time.sh")
    echo "== CPU profile of every compile and link: $EVG_CPU_PROFILE"
  fi
  if [ "${EVG_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
    launcher+=(ccache)
    export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
    echo "== compiler cache: $(ccache --version | head -1), $(ccache --get-config cache_dir)" \
         "($(ccache --get-config max_size) at most; EVG_CCACHE=0 to go without)"
  else
    echo "== compiler cache: none ($( [ "${EVG_CCACHE:-1}" = 0 ] && echo "EVG_CCACHE=0" || echo "ccache is not installed"))"
  fi
  local IFS=';'
  if [ ${#launcher[@]} -gt 0 ]; then
    export CMAKE_CXX_COMPILER_LAUNCHER="${launcher[*]}"
  else
    unset CMAKE_CXX_COMPILER_LAUNCHER
  fi
  compiler_cache_args=("-DCMAKE_CXX_COMPILER_LAUNCHER=${launcher[*]}")
}
