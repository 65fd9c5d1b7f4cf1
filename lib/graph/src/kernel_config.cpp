// The table of kernel configurations upstream accepts (kernel_config.hpp). The capacities are the model's
// (hw::arch_spec(Ascend950), the figures upstream's Arch::Ascend950 states); the rules are upstream's
// static_asserts in block_mmad_pingpong_tla.hpp and block_mmad_pingpong_mutex_tla.hpp (the same in master
// and v1.6.0) and what upstream and the hardware documentation state without an assert.
#include "evg/graph/kernel_config.hpp"

#include <fmt/format.h>

#include <array>

#include "evg/hw/arch.hpp"

namespace evg::graph {
namespace {

const hw::ArchSpec& ascend950() {
    return hw::arch_spec(ArchId::Ascend950);
}
uint64_t size_a(const Problem& p) {
    return hw::dtype_size(p.a);
}
uint64_t size_b(const Problem& p) {
    return hw::dtype_size(p.b);
}
// ElementAccumulator: float for float, half and bfloat16 operands, int32 for int8; 4 bytes either way.
constexpr uint64_t kAccumulatorSize = 4;

uint64_t l1_bytes(const Problem& p) {
    const KernelConfig& k = p.kernel;
    return uint64_t{p.tile.m} * p.tile.k * size_a(p) * k.l1a_stages +
           uint64_t{p.tile.n} * p.tile.k * size_b(p) * k.l1b_stages;
}

constexpr std::array<KernelRule, 14> kKernelRules = {{
    {"kernel-arch",
     {&ProblemKeys::arch, &ProblemKeys::arch},
     "a kernel configuration other than the default is for Ascend950, where upstream's EVG "
     "kernels are",
     "BasicMatmulTlaVisitor and BasicMatmulTlaUbVisitor compile for CATLASS_ARCH 3510 only",
     false,
     [](const Problem& p) { return p.arch == ArchId::Ascend950 || p.kernel == KernelConfig{}; },
     [](Problem& p) {
         p.arch = ArchId::AtlasA2;
         p.kernel.l1_resident = true;
     }},

    {"stages-positive",
     {&ProblemKeys::stages, &ProblemKeys::l0k},
     "every L1 and L0 stage count is at least 1",
     "block_mmad_pingpong_tla.hpp: the block-mmad's first load waits on the event of stage 0 of each list "
     "(l1AEventList[0], ...), which a stage count of 0 leaves out",
     false,
     [](const Problem& p) {
         const KernelConfig& k = p.kernel;
         return k.l1a_stages && k.l1b_stages && k.l0a_stages && k.l0b_stages && k.l0c_stages && k.l0_k;
     },
     [](Problem& p) { p.kernel.l0b_stages = 0; }},

    {"unit-flag-l0c-stages",
     {&ProblemKeys::stages, &ProblemKeys::unit_flag},
     "with the unit flag on, L0C has one stage",
     "block_mmad_pingpong_tla.hpp, static_assert \"L0C_STAGES must be 1 when UnitFlag is true!\"",
     true,
     [](const Problem& p) { return !p.kernel.unit_flag || p.kernel.l0c_stages == 1; },
     [](Problem& p) { p.kernel.l0c_stages = 2; }},

    {"hf32-float",
     {&ProblemKeys::hf32, &ProblemKeys::a},
     "HF32 mode takes float A and B",
     "block_mmad_pingpong_tla.hpp, static_assert \"HF32 MODE only supports in float!\"",
     true,
     [](const Problem& p) { return !p.kernel.hf32 || (p.a == DType::f32 && p.b == DType::f32); },
     [](Problem& p) { p.kernel.hf32 = true; }},

    {"l0k-le-l1k",
     {&ProblemKeys::l0k, &ProblemKeys::tile},
     "L0 K is at most the L1 tile's K",
     "block_mmad_pingpong_tla.hpp, static_assert \"L0TileShape::K cannot exceed L1TileShape::K\"",
     true,
     [](const Problem& p) { return p.kernel.l0_k <= p.tile.k; },
     [](Problem& p) { p.kernel.l0_k = 128; }},

    {"l1-capacity",
     {&ProblemKeys::stages, &ProblemKeys::tile},
     "the A and B stages of the L1 tile fit L1 (512 KiB)",
     "block_mmad_pingpong_tla.hpp, static_assert \"L1TileShape exceeding the L1 space!\"",
     true,
     [](const Problem& p) { return l1_bytes(p) <= ascend950().l1_size; },
     [](Problem& p) {
         p.tile = {256, 256, 256};  // 128 KiB of A and of B a stage: three and two stages, 640 KiB
         p.kernel.l0_k = 32;
         p.kernel.l1a_stages = 3;
     }},

    {"l0a-capacity",
     {&ProblemKeys::stages, &ProblemKeys::l0k},
     "the L0A stages (L1 M x L0 K each) fit L0A (64 KiB)",
     "block_mmad_pingpong_tla.hpp, static_assert \"L0TileShape exceeding the L0A space!\"",
     true,
     [](const Problem& p) {
         return uint64_t{p.tile.m} * p.kernel.l0_k * size_a(p) * p.kernel.l0a_stages <= ascend950().l0a_size;
     },
     [](Problem& p) {
         p.tile = {256, 16, 128};  // L0A 2 x 64 KiB, L0B 2 x 4 KiB
         p.kernel.l0_k = 128;
     }},

    {"l0b-capacity",
     {&ProblemKeys::stages, &ProblemKeys::l0k},
     "the L0B stages (L0 K x L1 N each) fit L0B (64 KiB)",
     "block_mmad_pingpong_tla.hpp, static_assert \"L0TileShape exceeding the L0B space!\"",
     true,
     [](const Problem& p) {
         return uint64_t{p.tile.n} * p.kernel.l0_k * size_b(p) * p.kernel.l0b_stages <= ascend950().l0b_size;
     },
     [](Problem& p) {
         p.tile = {16, 256, 128};
         p.kernel.l0_k = 128;
         p.kernel.l0b_stages = 2;
     }},

    {"l0c-capacity",
     {&ProblemKeys::stages, &ProblemKeys::tile},
     "the L0C stages (L1 M x L1 N accumulators each) fit L0C (256 KiB)",
     "block_mmad_pingpong_tla.hpp, static_assert \"L0TileShape exceeding the L0C space!\"",
     true,
     [](const Problem& p) {
         return uint64_t{p.tile.m} * p.tile.n * kAccumulatorSize * p.kernel.l0c_stages <=
                ascend950().l0c_size;
     },
     [](Problem& p) {
         p.tile = {256, 256, 128};
         p.kernel.unit_flag = false;
         p.kernel.l0c_stages = 2;
     }},

    {"l1-event-ids",
     {&ProblemKeys::stages, &ProblemKeys::stages},
     "MmadPingpong: L1A and L1B stages together are at most 8 (one event id each, ids 0 to 7; "
     "MmadPingpongMutex takes mutex ids instead)",
     "block_mmad_pingpong_tla.hpp, static_assert \"L1 Buffer overflow: Exceeds the supported range of "
     "EVENT(0~7)\"",
     true,
     [](const Problem& p) {
         return p.kernel.mmad != MmadPolicy::Pingpong || p.kernel.l1a_stages + p.kernel.l1b_stages <= 8;
     },
     [](Problem& p) { p.kernel.l1a_stages = p.kernel.l1b_stages = 5; }},

    {"l0-event-ids",
     {&ProblemKeys::stages, &ProblemKeys::stages},
     "MmadPingpong: L0A and L0B stages together are at most 8 (one event id each, ids 0 to 7; "
     "MmadPingpongMutex takes mutex ids instead)",
     "block_mmad_pingpong_tla.hpp, static_assert \"L0 Buffer overflow: Exceeds the supported range of "
     "EVENT_ID(0~7)\"",
     true,
     [](const Problem& p) {
         return p.kernel.mmad != MmadPolicy::Pingpong || p.kernel.l0a_stages + p.kernel.l0b_stages <= 8;
     },
     [](Problem& p) { p.kernel.l0a_stages = p.kernel.l0b_stages = 5; }},

    {"mutex-ids",
     {&ProblemKeys::stages, &ProblemKeys::mmad},
     "MmadPingpongMutex: all stages together are at most 28 (one mutex id each, ids 0 to 27)",
     "block_mmad_pingpong_mutex_tla.hpp, static_assert \"MutexID overflow: Exceeds the supported range of "
     "MutexID(0~27)\"",
     true,
     [](const Problem& p) {
         const KernelConfig& k = p.kernel;
         return k.mmad != MmadPolicy::PingpongMutex ||
                k.l1a_stages + k.l1b_stages + k.l0a_stages + k.l0b_stages + k.l0c_stages <= 28;
     },
     [](Problem& p) {
         p.kernel.mmad = MmadPolicy::PingpongMutex;
         p.kernel.unit_flag = false;
         // 29 stages, within the event-id rules (4 + 4 each) and L0C (13 x 8 KiB)
         p.kernel.l1a_stages = p.kernel.l1b_stages = p.kernel.l0a_stages = p.kernel.l0b_stages = 4;
         p.kernel.l0c_stages = 13;
     }},

    {"unit-flag-int8",
     {&ProblemKeys::unit_flag, &ProblemKeys::a},
     "the unit flag is off when A and B are int8",
     "catlass/gemm/dispatch_policy.hpp, the comment above MmadPingpong: \"ENABLE_UNIT_FLAG_ must be false "
     "when intput element is int8\" (no assert)",
     false,
     [](const Problem& p) { return !p.kernel.unit_flag || p.a != DType::i8; },
     [](Problem& p) { p.a = p.b = DType::i8; }},

    {"l0k-fractal",
     {&ProblemKeys::l0k, &ProblemKeys::a},
     "L0 K is a whole number of 32-byte fractal columns of A and B (16 halves, 32 int8, 8 floats)",
     "a fractal row is C0 = 32 bytes (docs/hardware-model.md §16); upstream asserts \"L0TileShape::K "
     "must be 32B aligned.\" for CATLASS_ARCH 2201 only",
     false,
     [](const Problem& p) {
         return p.kernel.l0_k * size_a(p) % 32 == 0 && p.kernel.l0_k * size_b(p) % 32 == 0;
     },
     [](Problem& p) { p.kernel.l0_k = 8; }},
}};

}  // namespace

std::span<const KernelRule> kernel_rules() {
    return kKernelRules;
}

std::optional<std::string> kernel_config_refusal(const Problem& p) {
    for (const KernelRule& r : kKernelRules)
        if (!r.holds(p))
            return fmt::format("{}: {} ({}); the problem's configuration is {}, tile {}x{}x{}, A {}, B {}",
                               r.id, r.statement, r.source, kernel_config_summary(p.kernel), p.tile.m,
                               p.tile.n, p.tile.k, hw::dtype_name(p.a), hw::dtype_name(p.b));
    return std::nullopt;
}

std::string kernel_config_unmodelled(const KernelConfig& k) {
    if (k.mmad == MmadPolicy::PingpongMutex)
        return "MmadPingpongMutex orders its pipes with AscendC::Mutex::Lock/Unlock, which the model does "
               "not "
               "execute (docs/ascendc-api.md)";
    if (k.hf32)
        return "HF32 mode rounds float operands before the Mmad, which the model does not execute "
               "(Mmad under SetHF32Mode(true), docs/ascendc-api.md)";
    return {};
}

std::string cpp_layout_tag(MatrixLayout l) {
    return l == MatrixLayout::RowMajor ? "Catlass::layout::RowMajor" : "Catlass::layout::ColumnMajor";
}

std::string cpp_dispatch_policy(const KernelConfig& k) {
    return fmt::format("Catlass::Gemm::{}<ArchTag, {}, {}, {}u, {}, {}u, {}u, {}u, {}u>",
                       k.mmad == MmadPolicy::Pingpong ? "MmadPingpong" : "MmadPingpongMutex", k.unit_flag,
                       k.hf32, k.l0c_stages, k.l1_resident, k.l1a_stages, k.l1b_stages, k.l0a_stages,
                       k.l0b_stages);
}

std::string kernel_config_summary(const KernelConfig& k) {
    return fmt::format("{}{}{}{} l0c{} s{}/{}/{}/{} l0k{} A:{} B:{}", mmad_policy_name(k.mmad),
                       k.unit_flag ? " uf" : "", k.l1_resident ? " res" : "", k.hf32 ? " hf32" : "",
                       k.l0c_stages, k.l1a_stages, k.l1b_stages, k.l0a_stages, k.l0b_stages, k.l0_k,
                       matrix_layout_name(k.layout_a), matrix_layout_name(k.layout_b));
}

}  // namespace evg::graph
