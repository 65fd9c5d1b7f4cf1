// Arch tags. Their sizes come from the machine's arch table, the one source of truth (evg::hw::arch_spec).
#pragma once
#include <cstdint>

#include "evg/hw/arch.hpp"

namespace Catlass::Arch {

struct AtlasA2 {
    static constexpr evg::hw::ArchId EVG_ARCH = evg::hw::ArchId::AtlasA2;
    static constexpr uint32_t BIAS_SIZE = evg::hw::kAtlasA2.bt_size;
    static constexpr uint32_t FIXBUF_SIZE = evg::hw::kAtlasA2.fb_size;
    static constexpr uint32_t UB_SIZE = evg::hw::kAtlasA2.ub_size;
    static constexpr uint32_t L1_SIZE = evg::hw::kAtlasA2.l1_size;
    static constexpr uint32_t L0A_SIZE = evg::hw::kAtlasA2.l0a_size;
    static constexpr uint32_t L0B_SIZE = evg::hw::kAtlasA2.l0b_size;
    static constexpr uint32_t L0C_SIZE = evg::hw::kAtlasA2.l0c_size;
};

struct Ascend950 {
    static constexpr evg::hw::ArchId EVG_ARCH = evg::hw::ArchId::Ascend950;
    static constexpr uint32_t BIAS_SIZE = evg::hw::kAscend950.bt_size;
    static constexpr uint32_t FIXBUF_SIZE = evg::hw::kAscend950.fb_size;
    static constexpr uint32_t UB_SIZE = evg::hw::kAscend950.ub_size;
    static constexpr uint32_t L1_SIZE = evg::hw::kAscend950.l1_size;
    static constexpr uint32_t L0A_SIZE = evg::hw::kAscend950.l0a_size;
    static constexpr uint32_t L0B_SIZE = evg::hw::kAscend950.l0b_size;
    static constexpr uint32_t L0C_SIZE = evg::hw::kAscend950.l0c_size;
};

struct PositionGM {};
struct PositionL1 {};
struct PositionL0A {};
struct PositionL0B {};
struct PositionL0C {};
struct PositionUB {};

}  // namespace Catlass::Arch
