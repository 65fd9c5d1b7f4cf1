// The arch table: the one place where per-chip numbers live (docs/hardware-model.md §12).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace evg::hw {

enum class ArchId : uint8_t { AtlasA2, Ascend950 };

enum class CoreType : uint8_t { AIC, AIV };

enum class KernelType : uint8_t {
    mix_aic_1_2,  // blockDim AICs, each with two AIVs (KERNEL_TYPE_MIX_AIC_1_2)
    aiv_only,     // blockDim AIVs
    aic_only,     // blockDim AICs
};
// Cores of a launch are numbered AICs first (index = block), then AIVs: the number of AICs.
constexpr int aic_count(KernelType t, int block_dim) {
    return t == KernelType::aiv_only ? 0 : block_dim;
}

// Pipe numbering follows the compiler's pipe_t (docs/hardware-model.md §1).
enum class Pipe : uint8_t { S = 0, V = 1, M = 2, MTE1 = 3, MTE2 = 4, MTE3 = 5, ALL = 6, FIX = 10 };
inline constexpr int kPipeSlots = 7;  // S V M MTE1 MTE2 MTE3 FIX: dense index for vector clocks
constexpr int pipe_slot(Pipe p) {
    return p == Pipe::FIX ? 6 : static_cast<int>(p);
}
constexpr Pipe slot_pipe(int s) {
    return s == 6 ? Pipe::FIX : static_cast<Pipe>(s);
}
std::string_view pipe_name(Pipe p);

// HardEvent values are the ordinal positions of the AscendC enum (docs/hardware-model.md §2.1).
enum class HardEvent : uint8_t {
    MTE2_MTE1 = 0,
    MTE1_MTE2,
    MTE1_M,
    M_MTE1,
    MTE2_V,
    V_MTE2,
    MTE3_V,
    V_MTE3,
    M_V,
    V_M,
    V_V,
    MTE3_MTE1,
    MTE1_MTE3,
    MTE1_V,
    MTE2_M,
    M_MTE2,
    V_MTE1,
    M_FIX,
    FIX_M,
    MTE3_MTE2,
    MTE2_MTE3,
    S_V,
    V_S,
    S_MTE2,
    MTE2_S,
    S_MTE3,
    MTE3_S,
    MTE2_FIX,
    FIX_MTE2,
    FIX_S,
    M_S,
    FIX_MTE3,
    MTE1_FIX,
    FIX_MTE1,
    FIX_FIX,
    MAX
};
std::string_view event_name(HardEvent e);
Pipe event_src(HardEvent e);
Pipe event_dst(HardEvent e);
// The event named <src>_<dst>, if the enum has one.
std::optional<HardEvent> event_between(Pipe src, Pipe dst);

enum class MemKind : uint8_t { GM, UB, L1, L0A, L0B, L0C, BT, FB };
std::string_view mem_name(MemKind m);

struct ArchSpec {
    ArchId id;
    std::string_view name;
    uint32_t ub_size, l1_size, l0a_size, l0b_size, l0c_size, bt_size, fb_size;
    // Required byte alignment of an operand address, per memory (GM: DataCopy needs sizeof(T), see §5).
    uint32_t align_ub, align_l1, align_l0ab, align_l0c, align_bt, align_fb;
    int max_event_id;       // 7: ids 0..7 exist
    int max_user_event_id;  // 5: ids 6 and 7 are reserved (warning)
    bool v_pipe_ordered;    // Ascend950: PIPE_V keeps order in hardware (rule R2)
    // Rule R3 (docs/hardware-model.md §1, §17): an Mmad that accumulates into the L0C region
    // the previous Mmad of its core wrote, with (m / 16) * (n / 16) at least this many fractals, is ordered
    // after that Mmad by the M pipe itself, without PipeBarrier<PIPE_M>. 0: no such guarantee on the chip.
    int mmad_accumulate_ordered_fractals;
    bool aic_has_mte3;           // AtlasA2's AIC owns an MTE3 pipe; Ascend950's does not
    bool cross_core_mode4;       // mode 4 (AIC <-> one AIV) exists on Ascend950 only
    bool cross_wait_blocks_all;  // AtlasA2: CrossCoreWaitFlag blocks every pipe of the waiter
    int cross_core_counter_max;  // 15
    int cross_core_flags;        // 16 flags per core (mode 4 AIC: 32)
    bool bf16_arithmetic;        // bf16 is a compute type only on Ascend950
    // AI cores of the chip as the platform reports them (PlatformAscendC::GetCoreNumAic / Aiv): one SKU per
    // arch, docs/hardware-model.md §4.2 (Atlas A2: 910B2; Ascend950: 950PR server).
    int aic_cores;
    int aiv_cores;
};

// The table (docs/hardware-model.md §12, docs/evg-semantics.md §9). Catlass's Arch tags read their sizes from
// here.
inline constexpr ArchSpec kAtlasA2{.id = ArchId::AtlasA2,
                                   .name = "AtlasA2",
                                   .ub_size = 196608,
                                   .l1_size = 524288,
                                   .l0a_size = 65536,
                                   .l0b_size = 65536,
                                   .l0c_size = 131072,
                                   .bt_size = 1024,
                                   .fb_size = 7168,
                                   .align_ub = 32,
                                   .align_l1 = 32,
                                   .align_l0ab = 512,
                                   .align_l0c = 64,
                                   .align_bt = 64,
                                   .align_fb = 64,
                                   .max_event_id = 7,
                                   .max_user_event_id = 5,
                                   .v_pipe_ordered = false,
                                   .mmad_accumulate_ordered_fractals = 0,
                                   .aic_has_mte3 = true,
                                   .cross_core_mode4 = false,
                                   .cross_wait_blocks_all = true,
                                   .cross_core_counter_max = 15,
                                   .cross_core_flags = 16,
                                   .bf16_arithmetic = false,
                                   .aic_cores = 24,
                                   .aiv_cores = 48};
inline constexpr ArchSpec kAscend950{.id = ArchId::Ascend950,
                                     .name = "Ascend950",
                                     .ub_size = 253952,
                                     .l1_size = 524288,
                                     .l0a_size = 65536,
                                     .l0b_size = 65536,
                                     .l0c_size = 262144,
                                     .bt_size = 4096,
                                     .fb_size = 16384,
                                     .align_ub = 32,
                                     .align_l1 = 32,
                                     .align_l0ab = 512,
                                     .align_l0c = 64,
                                     .align_bt = 64,
                                     .align_fb = 64,
                                     .max_event_id = 7,
                                     .max_user_event_id = 5,
                                     .v_pipe_ordered = true,
                                     .mmad_accumulate_ordered_fractals = 10,
                                     .aic_has_mte3 = false,
                                     .cross_core_mode4 = true,
                                     .cross_wait_blocks_all = false,
                                     .cross_core_counter_max = 15,
                                     .cross_core_flags = 16,
                                     .bf16_arithmetic = true,
                                     .aic_cores = 32,
                                     .aiv_cores = 64};
inline constexpr ArchId kAllArchs[] = {ArchId::AtlasA2, ArchId::Ascend950};

constexpr const ArchSpec& arch_spec(ArchId id) {
    return id == ArchId::AtlasA2 ? kAtlasA2 : kAscend950;
}
std::string_view arch_name(ArchId id);
std::optional<ArchId> arch_from_name(std::string_view name);

uint32_t mem_capacity(const ArchSpec& a, MemKind m);  // 0 for GM (unbounded; allocations bound it)
uint32_t mem_alignment(const ArchSpec& a, MemKind m);
// Whether `pipe` exists on this core type of this arch.
bool core_owns_pipe(const ArchSpec& a, CoreType t, Pipe p);
// Whether the HardEvent belongs to the event pool of the core type (§2.1: 13 AIV events, 24 AIC events).
bool event_valid_for(CoreType t, HardEvent e);

}  // namespace evg::hw
