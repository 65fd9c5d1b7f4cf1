#!/usr/bin/env bash
# A compiler launcher that measures: runs its arguments (a compile or link command, possibly behind ccache)
# and appends one line to $EVG_CPU_LOG: CPU seconds (user + system, of the command and its children), wall
# seconds and the output file (the argument after -o). scripts/phases.sh puts it in front of every compile when
# EVG_CPU_PROFILE names a file, and prints the heaviest units at the end. By hand:
#   CMAKE_CXX_COMPILER_LAUNCHER="$PWD/scripts/cpu-time.sh" EVG_CPU_LOG=/tmp/units cmake --preset release ...
out=?
prev=
for a in "$@"; do
  [ "$prev" = -o ] && out=$a
  prev=$a
done
start=$EPOCHREALTIME
"$@"
status=$?
# Fields 16 and 17 of /proc/PID/stat: the waited-for children's user and system time, in clock ticks.
read -r -a stat </proc/$$/stat
cpu=$(awk -v u="${stat[15]}" -v s="${stat[16]}" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (u + s) / hz }')
wall=$(awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.2f", e - s }')
[ -n "${EVG_CPU_LOG:-}" ] && echo "$cpu $wall $out" >>"$EVG_CPU_LOG"
exit $status
