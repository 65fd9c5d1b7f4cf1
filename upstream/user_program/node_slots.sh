#!/bin/sh
# The opt-in checker node-slots on real EVG programs: relu_half_evg.cpp's functor given twice its tile's length
# writes past its Compute node's UB slot into the AuxLoad's; the finding is headed by the functor's line and names
# both nodes (the functor's instruction by the visitor its call chain passes through). Without the checker the
# run is clean and the program's own compare succeeds: nothing else sees it. The fixed program, and each
# upstream example program given after the first three arguments, are clean under the checker (at two shapes).
# usage: node_slots.sh EVGCHECK PROGRAM SOURCE KNOWN [EXAMPLE_PROGRAM...]
set -u
evgcheck=$1 program=$2 source=$3 known=$4
shift 4
line=$(grep -n 'the last step (node_slots.sh)' "$source" | cut -d: -f1)
status=0
expect() {
    case "$1" in
        *"$2"*) ;;
        *) echo "missing from the output: $2"; status=1 ;;
    esac
}
out=$("$evgcheck" run-program --check node-slots --known "$known" --expect 'Compare success.' "$program" overrun 2>&1)
expect "$out" "findings: node_slot_overrun (1)"
expect "$out" "error [node_slot_overrun] relu_half_evg.cpp:$line: UB[AIV 0] bytes ["
expect "$out" "hold a value of node AuxLoad (#"
expect "$out" "and are written by node Compute (#"
expect "$out" "by node AuxLoad, called from visitor_aux_load.hpp:"
expect "$out" "issued at relu_half_evg.cpp:$line by node Compute"
expect "$out" "result: FAIL"
[ $status -eq 0 ] || printf '%s\n' "$out"
silent=$("$evgcheck" run-program --known "$known" --expect 'Compare success.' "$program" overrun 2>&1)
expect "$silent" "result: PASS"
for p in "$program clean" "$@"; do
    for shape in "65 100 40" "300 520 130"; do
        case "$p" in *relu_half_evg*) args=$p ;; *) args="$p $shape" ;; esac
        # shellcheck disable=SC2086
        r=$("$evgcheck" run-program --check node-slots --known "$known" --expect 'Compare success.' $args 2>&1)
        case "$r" in
            *"result: PASS"*) ;;
            *) echo "not clean under node-slots: $args"; printf '%s\n' "$r"; status=1 ;;
        esac
    done
done
exit $status
