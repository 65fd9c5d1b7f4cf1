#!/usr/bin/env bash
# Applies the smallest fixes of docs/upstream-findings.md to a copy of a Catlass checkout (in the build folder,
# never to the checkout itself and never in the repository), so that a test can show the fixed code runs clean.
#   apply_fixes.sh <copy of the checkout>
# Fails, naming the fix, when the code a fix rewrites is not there (the checkout moved on: the finding and its
# fix need a new look).
set -euo pipefail
root=$1
fix() {  # number, file (under include/catlass), sed expression, text that must be present after it
  local n=$1 file="$root/include/catlass/$2" expr=$3 after=$4
  sed -i -e "$expr" "$file"
  if ! grep -qF "$after" "$file"; then
    echo "apply_fixes.sh: fix $n of docs/upstream-findings.md does not apply to $file" >&2
    exit 1
  fi
}
# 1. MTE1 -> M hand-over on the L0B buffer's event id instead of the L0C stage's.
fix 1 gemm/block/block_mmad_pingpong_tla.hpp \
  's/HardEvent::MTE1_M>(l0CEventList\[l0CListId\])/HardEvent::MTE1_M>(l0BEventList[l0BListId])/g' \
  'HardEvent::MTE1_M>(l0BEventList[l0BListId])'
# (2. Retired: tile_mmad.hpp's threshold for PIPE_M barriers is the documented rule R3 of the model; no fix.)
# 3. The unit-flag configuration's L0C stage gets its event id, as the other configuration's stages do.
fix 3 gemm/block/block_mmad_pingpong_tla.hpp \
  's/\(l0CTensorList\[0\] = resource.l0CBuf.template GetBufferByByte<ElementAccumulator>(0);\)/\1 l0CEventList[0] = 0;/' \
  'GetBufferByByte<ElementAccumulator>(0); l0CEventList[0] = 0;'
# 4. A store that reads a load's buffer is ordered before the next load into that buffer set: one MTE3 -> MTE2
#    event per set (ids 0 and 1, free on the AIV), set after each STORE and waited before the next LOAD, set
#    once at construction and waited at destruction like the others (GM path); on the UB path the AIV hands the
#    C region back to the cube from the MTE3 pipe, after its stores, instead of from the V pipe.
ev=epilogue/block/block_epilogue_visitor.hpp
fix 4 $ev 's/\(AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(eventMTE3V\[1\]);\)/\1 AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(0); AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(1);/' \
  'AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(1);'
fix 4 $ev 's/\(AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(eventMTE3V\[1\]);\)/\1 AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(0); AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(1);/' \
  'AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(1);'
fix 4 $ev 's/\(AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(eventVMTE2\[ubListId\]);\)/\1 AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(ubListId);/' \
  'AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(ubListId);'
fix 4 $ev 's/\(AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(eventMTE3V\[ubListId\]);\)/\1 AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(ubListId);/' \
  'AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(ubListId);'
fix 4 gemm/kernel/basic_matmul_tla_ub_visitor.hpp \
  's/CrossCoreSetFlag<0x4, PIPE_V>(flagAivFinish)/CrossCoreSetFlag<0x4, PIPE_MTE3>(flagAivFinish)/g' \
  'CrossCoreSetFlag<0x4, PIPE_MTE3>(flagAivFinish)'
# 5. A Compute or a Cast works over the tile's lanes (its rows times its aligned columns), not over the whole
#    computeLength: on the UB path the last tile then no longer reads past the C region into its own destination.
for f in epilogue/fusion/visitor_compute.hpp epilogue/fusion/visitor_cast.hpp; do
  fix 5 $f 's|MatrixCoord const& /\*alignedTileShape\*/|MatrixCoord const\& alignedTileShape|' \
    'MatrixCoord const& alignedTileShape'
done
fix 5 epilogue/fusion/visitor_compute.hpp \
  's|compute_fn(ubOut, compute_length, inputs...)|compute_fn(ubOut, alignedTileShape.row() * alignedTileShape.column(), inputs...)|' \
  'compute_fn(ubOut, alignedTileShape.row() * alignedTileShape.column(), inputs...)'
fix 5 epilogue/fusion/visitor_cast.hpp \
  's|{}(ubOut, compute_length, input)|{}(ubOut, alignedTileShape.row() * alignedTileShape.column(), input)|' \
  '{}(ubOut, alignedTileShape.row() * alignedTileShape.column(), input)'
# 7. The int8 transposed L1 -> L0B load whose N (L1 -> L0A: whose M) is not whole 32-element blocks: its K chunks
#    are written by one LoadData each, 512 bytes apart, and each writes 1 KiB (two fractals), so consecutive
#    chunks overlap: an MTE1 barrier after each chunk orders the overlapping writes (rule R1).
for side in b:N a:M; do
  fix 7 gemm/tile/ascend950/copy_l1_to_l0${side%%:*}.hpp \
    "s/\(dstTensor.data()\[dstOffset + kIdx \* L0${side##*:}Padded \* ELE_NUM_PER_C0\], srcTensor.data(), loadDataParams);\)/\1 AscendC::PipeBarrier<PIPE_MTE1>();/" \
    "kIdx * L0${side##*:}Padded * ELE_NUM_PER_C0], srcTensor.data(), loadDataParams); AscendC::PipeBarrier<PIPE_MTE1>();"
done
echo "apply_fixes.sh: fixes 1, 3, 4, 5 and 7 applied to $root"
