# Sourced by scripts/test.sh and scripts/lint.sh: `phase NAME COMMAND...` runs COMMAND and prints the phase's
# wall time; `phases_summary` prints every phase's time at the end (also when a phase failed).
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
