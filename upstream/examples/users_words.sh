#!/bin/sh
# Findings in the user's words, on upstream's add example built as a user builds a program: a dropped
# WaitFlag<MTE2_V> of AIV 0 (mutation point n=7 of the pinned master snapshot) races the AuxLoad's copy with the
# Add. The finding is headed by the program's own line that launched the kernel, the Catlass lines are marked
# as Catlass's, the Add names its node, the copy its node through its call chain (the visitor that called the
# copy helper), and the GM buffer is the program's variable with its allocation line.
# usage: users_words.sh EVGCHECK PROGRAM SOURCE REPORT.json
set -u
evgcheck=$1 program=$2 source=$3 report=$4
launch=$(grep -n 'matmulOp(stream, aicCoreNum);' "$source" | tail -1 | cut -d: -f1)
alloc=$(grep -n 'aclrtMalloc((void \*\*)&deviceD' "$source" | head -1 | cut -d: -f1)
out=$("$evgcheck" run-program --report "$report" --mutate 'drop-wait core=AIV0.0 n=7' "$program" 65 100 40 2>&1)
status=0
expect() {
    case "$out" in
        *"$1"*) ;;
        *) echo "missing from the output: $1"; status=1 ;;
    esac
}
expect "error [race] matmul_evg_add.cpp:$launch: RAW race on UB[AIV 0]"
expect "issued at copy_gm_to_ub_tla.hpp:"
expect "(Catlass), from matmul_evg_add.cpp:$launch (your kernel launch)"
expect "by node Compute (Add)"
expect "(Catlass) by node AccLoad, called from visitor_acc_load.hpp:"
expect "< kernel_adapter.hpp:"
expect "GM buffer deviceD: 26000 bytes, aclrtMalloc at matmul_evg_add.cpp:$alloc"
for key in "\"user_site\": \"matmul_evg_add.cpp:$launch\"" '"node": "Compute (Add)"' '"owner": "catlass"'; do
    grep -qF "$key" "$report" || { echo "missing from the report: $key"; status=1; }
done
[ $status -eq 0 ] || printf '%s\n' "$out"
exit $status
