#include "evg/hw/arch.hpp"

namespace evg::hw {

std::string_view pipe_name(Pipe p) {
    switch (p) {
        case Pipe::S:
            return "S";
        case Pipe::V:
            return "V";
        case Pipe::M:
            return "M";
        case Pipe::MTE1:
            return "MTE1";
        case Pipe::MTE2:
            return "MTE2";
        case Pipe::MTE3:
            return "MTE3";
        case Pipe::ALL:
            return "ALL";
        case Pipe::FIX:
            return "FIX";
    }
    return "?";
}

namespace {
struct EventInfo {
    std::string_view name;
    Pipe src, dst;
};
constexpr EventInfo kEvents[] = {
    {"MTE2_MTE1", Pipe::MTE2, Pipe::MTE1},
    {"MTE1_MTE2", Pipe::MTE1, Pipe::MTE2},
    {"MTE1_M", Pipe::MTE1, Pipe::M},
    {"M_MTE1", Pipe::M, Pipe::MTE1},
    {"MTE2_V", Pipe::MTE2, Pipe::V},
    {"V_MTE2", Pipe::V, Pipe::MTE2},
    {"MTE3_V", Pipe::MTE3, Pipe::V},
    {"V_MTE3", Pipe::V, Pipe::MTE3},
    {"M_V", Pipe::M, Pipe::V},
    {"V_M", Pipe::V, Pipe::M},
    {"V_V", Pipe::V, Pipe::V},
    {"MTE3_MTE1", Pipe::MTE3, Pipe::MTE1},
    {"MTE1_MTE3", Pipe::MTE1, Pipe::MTE3},
    {"MTE1_V", Pipe::MTE1, Pipe::V},
    {"MTE2_M", Pipe::MTE2, Pipe::M},
    {"M_MTE2", Pipe::M, Pipe::MTE2},
    {"V_MTE1", Pipe::V, Pipe::MTE1},
    {"M_FIX", Pipe::M, Pipe::FIX},
    {"FIX_M", Pipe::FIX, Pipe::M},
    {"MTE3_MTE2", Pipe::MTE3, Pipe::MTE2},
    {"MTE2_MTE3", Pipe::MTE2, Pipe::MTE3},
    {"S_V", Pipe::S, Pipe::V},
    {"V_S", Pipe::V, Pipe::S},
    {"S_MTE2", Pipe::S, Pipe::MTE2},
    {"MTE2_S", Pipe::MTE2, Pipe::S},
    {"S_MTE3", Pipe::S, Pipe::MTE3},
    {"MTE3_S", Pipe::MTE3, Pipe::S},
    {"MTE2_FIX", Pipe::MTE2, Pipe::FIX},
    {"FIX_MTE2", Pipe::FIX, Pipe::MTE2},
    {"FIX_S", Pipe::FIX, Pipe::S},
    {"M_S", Pipe::M, Pipe::S},
    {"FIX_MTE3", Pipe::FIX, Pipe::MTE3},
    {"MTE1_FIX", Pipe::MTE1, Pipe::FIX},
    {"FIX_MTE1", Pipe::FIX, Pipe::MTE1},
    {"FIX_FIX", Pipe::FIX, Pipe::FIX},
};
static_assert(std::size(kEvents) == static_cast<size_t>(HardEvent::MAX));

constexpr HardEvent kAivEvents[] = {
    HardEvent::MTE2_V,    HardEvent::V_MTE2,    HardEvent::MTE3_V, HardEvent::V_MTE3, HardEvent::V_V,
    HardEvent::MTE3_MTE2, HardEvent::MTE2_MTE3, HardEvent::S_V,    HardEvent::V_S,    HardEvent::S_MTE2,
    HardEvent::MTE2_S,    HardEvent::S_MTE3,    HardEvent::MTE3_S};
constexpr HardEvent kAicEvents[] = {
    HardEvent::MTE2_MTE1, HardEvent::MTE1_MTE2, HardEvent::MTE1_M,   HardEvent::M_MTE1, HardEvent::MTE3_MTE1,
    HardEvent::MTE1_MTE3, HardEvent::MTE2_M,    HardEvent::M_MTE2,   HardEvent::M_FIX,  HardEvent::FIX_M,
    HardEvent::MTE3_MTE2, HardEvent::MTE2_MTE3, HardEvent::S_MTE2,   HardEvent::MTE2_S, HardEvent::S_MTE3,
    HardEvent::MTE3_S,    HardEvent::MTE2_FIX,  HardEvent::FIX_MTE2, HardEvent::FIX_S,  HardEvent::M_S,
    HardEvent::FIX_MTE3,  HardEvent::MTE1_FIX,  HardEvent::FIX_MTE1, HardEvent::FIX_FIX};
static_assert(std::size(kAivEvents) == 13 && std::size(kAicEvents) == 24);
}  // namespace

std::string_view event_name(HardEvent e) {
    auto i = static_cast<size_t>(e);
    return i < std::size(kEvents) ? kEvents[i].name : std::string_view("MAX");
}
Pipe event_src(HardEvent e) {
    return kEvents[static_cast<size_t>(e)].src;
}
Pipe event_dst(HardEvent e) {
    return kEvents[static_cast<size_t>(e)].dst;
}

std::optional<HardEvent> event_between(Pipe src, Pipe dst) {
    for (size_t i = 0; i < std::size(kEvents); ++i)
        if (kEvents[i].src == src && kEvents[i].dst == dst) return static_cast<HardEvent>(i);
    return std::nullopt;
}

bool event_valid_for(CoreType t, HardEvent e) {
    if (t == CoreType::AIV) {
        for (auto x : kAivEvents)
            if (x == e) return true;
        return false;
    }
    for (auto x : kAicEvents)
        if (x == e) return true;
    return false;
}

std::string_view mem_name(MemKind m) {
    switch (m) {
        case MemKind::GM:
            return "GM";
        case MemKind::UB:
            return "UB";
        case MemKind::L1:
            return "L1";
        case MemKind::L0A:
            return "L0A";
        case MemKind::L0B:
            return "L0B";
        case MemKind::L0C:
            return "L0C";
        case MemKind::BT:
            return "BT";
        case MemKind::FB:
            return "FB";
    }
    return "?";
}

std::string_view arch_name(ArchId id) {
    return arch_spec(id).name;
}

std::optional<ArchId> arch_from_name(std::string_view name) {
    if (name == "AtlasA2" || name == "atlasa2" || name == "a2" || name == "A2") return ArchId::AtlasA2;
    if (name == "Ascend950" || name == "ascend950" || name == "950") return ArchId::Ascend950;
    return std::nullopt;
}

uint32_t mem_capacity(const ArchSpec& a, MemKind m) {
    switch (m) {
        case MemKind::GM:
            return 0;
        case MemKind::UB:
            return a.ub_size;
        case MemKind::L1:
            return a.l1_size;
        case MemKind::L0A:
            return a.l0a_size;
        case MemKind::L0B:
            return a.l0b_size;
        case MemKind::L0C:
            return a.l0c_size;
        case MemKind::BT:
            return a.bt_size;
        case MemKind::FB:
            return a.fb_size;
    }
    return 0;
}

uint32_t mem_alignment(const ArchSpec& a, MemKind m) {
    switch (m) {
        case MemKind::GM:
            return 1;
        case MemKind::UB:
            return a.align_ub;
        case MemKind::L1:
            return a.align_l1;
        case MemKind::L0A:
        case MemKind::L0B:
            return a.align_l0ab;
        case MemKind::L0C:
            return a.align_l0c;
        case MemKind::BT:
            return a.align_bt;
        case MemKind::FB:
            return a.align_fb;
    }
    return 1;
}

bool core_owns_pipe(const ArchSpec& a, CoreType t, Pipe p) {
    switch (p) {
        case Pipe::S:
        case Pipe::MTE2:
        case Pipe::ALL:
            return true;
        case Pipe::V:
            return t == CoreType::AIV;
        case Pipe::MTE3:
            return t == CoreType::AIV || a.aic_has_mte3;
        case Pipe::M:
        case Pipe::MTE1:
        case Pipe::FIX:
            return t == CoreType::AIC;
    }
    return false;
}

}  // namespace evg::hw
