#!/bin/sh
# Findings told by the user's line that called Catlass: catlass_helpers.cpp's kernel calls two of Catlass's
# fusion operations; the instructions they issue are Catlass's lines, and a finding about them is headed by the
# user's call, with the Catlass line kept in the location and the call chain in the report. With the chains
# off (EVG_CALL_CHAIN=0) the same finding falls back to the kernel launch's line.
# usage: call_chain.sh EVGCHECK PROGRAM SOURCE
set -u
evgcheck=$1 program=$2 source=$3
report=$(mktemp)
trap 'rm -f "$report"' EXIT
first=$(grep -n 'the first operation (call_chain.sh)' "$source" | cut -d: -f1)
second=$(grep -n 'the second (call_chain.sh)' "$source" | cut -d: -f1)
launch=$(grep -n 'evg::acl::launch(' "$source" | head -1 | cut -d: -f1)
status=0
expect() {  # expect OUTPUT TEXT
    case "$1" in
        *"$2"*) ;;
        *) echo "missing from the output: $2"; status=1 ;;
    esac
}
reject() {
    case "$1" in
        *"$2"*) echo "unexpected in the output: $2"; status=1 ;;
    esac
}

out=$("$evgcheck" run-program --check portable-v-order --report "$report" "$program" vchain 2>&1)
expect "$out" "error [v_order_unportable] catlass_helpers.cpp:$first: RAW on UB[AIV 0]"
expect "$out" "issued at operations.hpp:"
expect "$out" "a PipeBarrier<PIPE_V>() after catlass_helpers.cpp:$first makes it portable"
expect "$out" "(Catlass) by node Compute (Adds), called from catlass_helpers.cpp:$first"
expect "$out" "(Catlass) by node Compute (Muls), called from catlass_helpers.cpp:$second"
reject "$out" "your kernel launch"
for key in "\"user_site\": \"catlass_helpers.cpp:$second\"" '"owner": "user"' '"function": "'; do
    grep -qF "$key" "$report" || { echo "missing from the report: $key"; status=1; }
done
[ $status -eq 0 ] || printf '%s\n' "$out"

racy=$("$evgcheck" run-program "$program" racy 2>&1)
expect "$racy" "Adds on V of AIV 0, read UB[AIV 0] [0, 2048), issued at operations.hpp:"
expect "$racy" "called from catlass_helpers.cpp:$first"

off=$(EVG_CALL_CHAIN=0 "$evgcheck" run-program --check portable-v-order "$program" vchain 2>&1)
expect "$off" "error [v_order_unportable] catlass_helpers.cpp:$launch: RAW on UB[AIV 0]"
expect "$off" "from catlass_helpers.cpp:$launch (your kernel launch)"
reject "$off" "called from"

clean=$("$evgcheck" run-program --check portable-v-order --expect 'Compare success.' "$program" clean 2>&1)
expect "$clean" "result: PASS"
exit $status
