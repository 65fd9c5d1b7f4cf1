#!/usr/bin/env bash
# Plants each fault of upstream/planted/sample.tsv alone in a fresh copy of a Catlass checkout and runs the
# default `evgcheck check --catlass-root COPY` on it (the run a maintainer makes: a fresh seed, printed): a fault
# is found when the run fails and its shrunk case, replayed on the checkout itself, passes (the failure is the
# plant's). Prints a line per plant (found, MISSED, or NOT THE PLANT'S; the failure's tag, seconds) and writes
# the table to OUT/summary.md. A plant whose substitution does not change the file in exactly one place is an error (the
# checkout's code differs from the sample's): the script says which and goes on.
#
#   scripts/planted-sample.sh CATLASS_ROOT OUT [EVGCHECK] [IDS...]
#
# EVGCHECK defaults to build/release/tools/evgcheck; IDS (default: all) picks plants by id. Each copy compiles
# its own libraries (nothing cached across plants): about a minute a plant on 2 cores.
set -uo pipefail
cd "$(dirname "$0")/.."
root=${1:?usage: scripts/planted-sample.sh CATLASS_ROOT OUT [EVGCHECK] [IDS...]}
out=${2:?usage: scripts/planted-sample.sh CATLASS_ROOT OUT [EVGCHECK] [IDS...]}
evgcheck=${3:-build/release/tools/evgcheck}
shift $(($# < 3 ? $# : 3))
[ -d "$root/include/catlass" ] || { echo "planted-sample: $root has no include/catlass" >&2; exit 2; }
[ -x "$evgcheck" ] || { echo "planted-sample: no evgcheck at $evgcheck" >&2; exit 2; }
mkdir -p "$out"
summary="$out/summary.md"
printf '| plant | family | what | found | failure | seconds |\n|---|---|---|---|---|---|\n' >"$summary"
found=0 missed=0 broken=0
while IFS=$'\t' read -r id family expect file subst what; do
    case "$id" in '' | '#'*) continue ;; esac
    if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qxF "$id"; then continue; fi
    copy="$out/$id/catlass"
    rm -rf "$out/$id"
    mkdir -p "$copy"
    cp -r "$root/include" "$copy/"
    target="$copy/include/catlass/$file"
    if ! SUBST="$subst" perl -0777 -i -pe 'BEGIN { $e = $ENV{SUBST} } $n = eval $e; die $@ if $@;
            END { exit($n == 1 ? 0 : 3) }' "$target"; then
        echo "BROKEN $id: the substitution does not change $file in exactly one place"
        printf '| %s | %s | %s | not applied | | |\n' "$id" "$family" "$what" >>"$summary"
        broken=$((broken + 1))
        continue
    fi
    start=$(date +%s)
    "$evgcheck" check --catlass-root "$copy" --work-dir "$out/$id/work" >"$out/$id/check.txt" 2>&1
    rc=$?
    secs=$(($(date +%s) - start))
    first=$(grep -m1 -E '^failure' "$out/$id/check.txt" | cut -c1-120 | tr '|' '/')
    case_file=$(sed -n 's/^files: \([^ ]*case\.txt\) (the case).*/\1/p' "$out/$id/check.txt" | head -1)
    if [ "$expect" = quiet ]; then
        if [ "$rc" -eq 0 ]; then
            echo "quiet  $id ($family, ${secs} s): passes, as it must (not a fault on Ascend950)"
            printf '| %s | %s | %s | quiet, as it must | | %s |\n' "$id" "$family" "$what" "$secs" >>"$summary"
            found=$((found + 1))
        else
            echo "FALSE ALARM $id ($family, exit $rc): $first"
            printf '| %s | %s | %s | **false alarm** | %s | %s |\n' "$id" "$family" "$what" "$first" "$secs" \
                >>"$summary"
            missed=$((missed + 1))
        fi
    elif [ "$rc" -eq 1 ] && [ -n "$case_file" ] &&
        "$evgcheck" check --catlass-root "$root" --replay "$case_file" --work-dir "$out/control-work" \
            >"$out/$id/control.txt" 2>&1; then
        echo "found  $id ($family, ${secs} s): $first"
        printf '| %s | %s | %s | yes | %s | %s |\n' "$id" "$family" "$what" "$first" "$secs" >>"$summary"
        found=$((found + 1))
    elif [ "$rc" -eq 1 ]; then
        echo "NOT THE PLANT'S $id ($family): the failing case also fails on the checkout, or none was written"
        printf '| %s | %s | %s | **not the plant'"'"'s** | %s | %s |\n' "$id" "$family" "$what" "$first" \
            "$secs" >>"$summary"
        missed=$((missed + 1))
    else
        echo "MISSED $id ($family, ${secs} s, exit $rc): $(tail -1 "$out/$id/check.txt")"
        printf '| %s | %s | %s | **no** (exit %s) | | %s |\n' "$id" "$family" "$what" "$rc" "$secs" >>"$summary"
        missed=$((missed + 1))
    fi
    rm -rf "$copy" "$out/$id/work/lib"* 2>/dev/null
done <upstream/planted/sample.tsv
echo "planted sample: $found as expected, $missed not, $broken not applied (table: $summary)"
[ "$missed" -eq 0 ] && [ "$broken" -eq 0 ]
