#!/bin/sh
# The checker fp on a user's EVG program: tanh_evg.cpp unclamped makes +inf in its functor's Exp (e^2C above
# float's range), the Div makes NaN of it, and D holds those NaN; the program's own compare lets NaN through and
# says "Compare success.". run-program fails with the finding headed by the functor's Exp line, naming the NaN
# that reached D. Clamped, the run is clean; `--fp warn` makes the finding a warning (the run passes), `--fp off`
# switches the checker off.
# The program's Catlass tiles give upstream's own documented findings (KNOWN, docs/upstream-findings.md).
# usage: fp.sh EVGCHECK PROGRAM SOURCE KNOWN
set -u
evgcheck=$1 program=$2 source=$3 known=$4
line=$(grep -n 'e^2x (fp.sh)' "$source" | cut -d: -f1)
status=0
expect() {
    case "$1" in
        *"$2"*) ;;
        *) echo "missing from the output: $2"; status=1 ;;
    esac
}
out=$("$evgcheck" run-program --known "$known" --expect 'Compare success.' "$program" unclamped 2>&1)
expect "$out" "findings: fp_inf_born (1)"
expect "$out" "error [fp_inf_born] tanh_evg.cpp:$line: Exp of "
expect "$out" "in float gives +inf"
expect "$out" "reached GM: "
expect "$out" "deviceD holds "
expect "$out" " NaN"
expect "$out" "issued at tanh_evg.cpp:$line by node Compute"
expect "$out" "result: FAIL"
[ $status -eq 0 ] || printf '%s\n' "$out"
# The timeline marks the born instruction.
tl=$(mktemp --suffix=.json)
"$evgcheck" run-program --known "$known" --timeline "$tl" "$program" unclamped >/dev/null 2>&1
expect "$(cat "$tl")" '"name":"fp_inf_born","cat":"finding"'
rm -f "$tl"
warn=$("$evgcheck" run-program --fp warn --known "$known" --expect 'Compare success.' "$program" unclamped 2>&1)
expect "$warn" "warnings: fp_inf_born at tanh_evg.cpp:$line"
expect "$warn" "but deviceD holds "
expect "$warn" "(all made by the launch: the findings say where)"
expect "$warn" "result: PASS"
off=$("$evgcheck" run-program --fp off --known "$known" --expect 'Compare success.' "$program" unclamped 2>&1)
case "$off" in *fp_inf_born*) echo "--fp off still reports"; status=1 ;; esac
expect "$off" "result: PASS"
bad=$("$evgcheck" run-program --fp loud "$program" 2>&1)
expect "$bad" "option --fp: unknown NaN/infinity policy 'loud'"
for shape in "" "65 100 40" "300 520 130"; do
    # shellcheck disable=SC2086
    r=$("$evgcheck" run-program --known "$known" --expect 'Compare success.' "$program" clamped $shape 2>&1)
    case "$r" in
        *"result: PASS"*) ;;
        *) echo "not clean clamped: $shape"; printf '%s\n' "$r"; status=1 ;;
    esac
    case "$r" in *fp_*) echo "a fp finding clamped: $shape"; printf '%s\n' "$r"; status=1 ;; esac
done
exit $status
