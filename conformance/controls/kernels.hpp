// The checker controls' kernels: small AscendC kernels of our own, one per finding kind of the machine
// (violation_kinds.def) and, for races, per direction and place, each in its faulty form (`fault`) and its
// fixed form. Each runner launches its kernel on a fresh device of `cfg`'s chip (trace kept) and compares
// what the kernel left in GM with a plain C++ reference where it computes something (HazardRun::mismatch).
// The fault must give exactly its finding and the fix nothing (conformance/suites/checker_controls.cpp
// lists which kernel proves which finding on which chip).
#pragma once
#include "ascendc/samples/sync_hazards.hpp"
#include "evg/hw/config.hpp"

namespace evg::conformance::controls {

using AscendC::samples::HazardRun;
using Runner = HazardRun (*)(const hw::Config& cfg, bool fault);

// ---- races (sync_kernels.cpp); the fix is the missing PipeBarrier, flag or cross-core flag ----
// AIV: Muls writes B, Adds reads it on V with no PipeBarrier<PIPE_V> (RAW on V; Ascend950's V keeps order).
HazardRun race_raw_v_v(const hw::Config& cfg, bool fault);
// AIV: Muls reads A, Duplicate overwrites A on V with no PipeBarrier<PIPE_V> (WAR on V).
HazardRun race_war_v_v(const hw::Config& cfg, bool fault);
// AIC: an accumulating Mmad reads (and rewrites) the L0C of the Mmad before it with no PipeBarrier<PIPE_M>
// (RAW on M; the M pipe keeps no order on either chip).
HazardRun race_raw_m_m(const hw::Config& cfg, bool fault);
// AIC: the same pair on a 64 x 64 tile (16 fractals): on Ascend950 the M pipe orders an Mmad accumulating
// into the region the previous Mmad wrote from 10 fractals on (rule R3, mmad_accumulate_ordered), so the pair
// needs no barrier there; on AtlasA2 it is the RAW on M of race_raw_m_m.
HazardRun race_raw_m_m_16_fractals(const hw::Config& cfg, bool fault);
// AIC: on the same 64 x 64 tile, an Mmad that overwrites (cmatrixInitVal) the region an accumulating Mmad
// still reads and writes, with no PipeBarrier<PIPE_M>: the pipe's own order covers only accumulation, so
// this is a WAW on M on both chips.
HazardRun race_waw_m_m_overwrite(const hw::Config& cfg, bool fault);
// AIV: two stores to one GM range on MTE3 with no PipeBarrier<PIPE_MTE3> (WAW on MTE3).
HazardRun race_waw_mte3_mte3(const hw::Config& cfg, bool fault);
// AIV: MTE2 loads A, V reads it with no SetFlag/WaitFlag<MTE2_V> (RAW between two pipes of one core).
HazardRun race_raw_mte2_v(const hw::Config& cfg, bool fault);
// AIV: V reads A, MTE2 reloads A with no SetFlag/WaitFlag<V_MTE2> (WAR between two pipes of one core).
HazardRun race_war_v_mte2(const hw::Config& cfg, bool fault);
// AIV: V fills A, MTE2 loads into A with no SetFlag/WaitFlag<V_MTE2> (WAW between two pipes of one core).
HazardRun race_waw_v_mte2(const hw::Config& cfg, bool fault);
// Two AIVs of two blocks: AIV 0 stores W, AIV 1 loads it; no cross-core flag between them (RAW).
HazardRun race_raw_cross_core(const hw::Config& cfg, bool fault);
// AIV 0 loads W, AIV 1 overwrites it; no cross-core flag between them (WAR).
HazardRun race_war_cross_core(const hw::Config& cfg, bool fault);
// AIV 0 and AIV 1 store to one GM range; no cross-core flag between them (WAW).
HazardRun race_waw_cross_core(const hw::Config& cfg, bool fault);

// ---- flags and cross-core counters (sync_kernels.cpp) ----
// AIV: WaitFlag<MTE2_V>(0) with no SetFlag before it.
HazardRun deadlock_wait_without_set(const hw::Config& cfg, bool fault);
// AIV: SetFlag<MTE2_V>(0) twice before the first wait; the fix signals the second time on id 1.
HazardRun flag_set_twice(const hw::Config& cfg, bool fault);
// AIV: a SetFlag<V_MTE3>(1) that no WaitFlag consumes.
HazardRun flag_left_set(const hw::Config& cfg, bool fault);
// An event id read from a member the constructor never assigned: uninit_value (the model's fill of the
// stack).
HazardRun uninit_event_id(const hw::Config& cfg, bool fault);
// AIV, with the opt-in checker redundant-waits: twice, MTE2 sets ids 1 and 0 after its load, V waits on 0 and
// then on 1, whose set V already happens-after; the fix hands the load over once each time.
HazardRun redundant_wait(const hw::Config& cfg, bool fault);
HazardRun portable_v_order(const hw::Config& cfg, bool fault);
// mix: the AIC signals its AIVs over a mode-2 flag and the AIVs never wait for it.
HazardRun counter_left_nonzero(const hw::Config& cfg, bool fault);
// mix: each AIV signals the AIC twice on one flag, once from MTE3 and once from V (unordered sets).
HazardRun cross_core_two_pipe_sets(const hw::Config& cfg, bool fault);
// AIV: SetAtomicAdd<float>() with no SetAtomicNone() before the kernel ends.
HazardRun atomic_left_on(const hw::Config& cfg, bool fault);
// mix: the AIVs signal the AIC with mode-2 flag id 17 (the wait is on 1); AtlasA2 has no mode 4 whose AIV
// flags go past 15.
HazardRun cross_core_flag_id_above_15(const hw::Config& cfg, bool fault);
// Two AIVs meet at SyncAll<true>() (declared, not modelled); the fix meets at a mode-0 cross-core flag.
HazardRun sync_all_unmodelled(const hw::Config& cfg, bool fault);

// ---- memory, types and parameters (memory_kernels.cpp) ----
// AIV, with the opt-in checker node-slots: three graph nodes with a UB slot each; the fault gives one node's
// Muls twice its length, writing the next node's slot before that value is read.
HazardRun node_slot_overrun(const hw::Config& cfg, bool fault);
// AIV: a tensor view that runs past the end of UB.
HazardRun ub_out_of_bounds(const hw::Config& cfg, bool fault);
// AIV: a load that reads past the end of its GM allocation.
HazardRun gm_out_of_bounds(const hw::Config& cfg, bool fault);
// AIV: a UB operand 16 bytes into a buffer (UB needs 32-byte alignment).
HazardRun ub_misaligned(const hw::Config& cfg, bool fault);
// AIV: TPipe::InitBuffer carves more UB than the chip has.
HazardRun ub_carve_overflow(const hw::Config& cfg, bool fault);
// AIV: stores 128 floats of a buffer whose last 64 were never written.
HazardRun uninit_store(const hw::Config& cfg, bool fault);
// AIV: GetValue of a UB element never written.
HazardRun uninit_scalar_read(const hw::Config& cfg, bool fault);
// AIV: Cast half -> float with CAST_RINT (the widening takes CAST_NONE only).
HazardRun cast_mode_illegal(const hw::Config& cfg, bool fault);
// AIV: Exp over int32 elements (Exp takes half and float).
HazardRun exp_of_int32(const hw::Config& cfg, bool fault);
// AIV: DataCopyPad with a blockLen of 254 bytes for float elements (not a multiple of 4).
HazardRun copy_pad_block_len(const hw::Config& cfg, bool fault);
// AIV: Relu over two repeats whose destination starts one repeat above its source (the second repeat reads
// what the first wrote); the fix writes to a buffer of its own.
HazardRun vector_overlap(const hw::Config& cfg, bool fault);
// AIV: a load from a GlobalTensor whose buffer was never set (null).
HazardRun null_gm_buffer(const hw::Config& cfg, bool fault);
// AIV: the kernel body throws (a host-side check inside the kernel).
HazardRun kernel_throws(const hw::Config& cfg, bool fault);
// AIV: SetValue to GM, then a DMA reads it with no DataCacheCleanAndInvalid between.
HazardRun dcache_not_cleaned(const hw::Config& cfg, bool fault);

// ---- numeric exceptions (fp_kernels.cpp) ----
// AIV: Exp in half of X up to 15 (e^15 is above half's 65504: +inf, stored to GM); the fix clamps X at 11.
HazardRun exp_overflows_half(const hw::Config& cfg, bool fault);
// AIV: Div of X by itself where X holds zeros (0/0 = NaN, stored to GM); the fix divides by |X| + 1.
HazardRun zero_over_zero(const hw::Config& cfg, bool fault);

}  // namespace evg::conformance::controls
