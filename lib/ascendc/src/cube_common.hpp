// Shared helpers of the cube instructions (cube.cpp, fixpipe.cpp, nd2nz.cpp).
#pragma once
#include <fmt/format.h>

#include <initializer_list>
#include <string>

#include "evg/hw/core.hpp"
#include "evg/hw/machine.hpp"
#include "operands.hpp"

namespace AscendC::detail::cube {

inline bool fail(evg::hw::Core& c, evg::hw::ViolationKind k, const std::string& op, const std::string& msg,
                 Site site) {
    c.violate(k, op + ": " + msg, {c.site_location(op, site)});
    return false;
}

inline bool require_aic(evg::hw::Core& c, const std::string& op, Site site) {
    if (c.type() == evg::hw::CoreType::AIC) return true;
    return fail(c, evg::hw::ViolationKind::bad_param, op,
                fmt::format("runs on the AIC only; {} is an AIV", c.name()), site);
}

inline bool require_mem(evg::hw::Core& c, const LocalRef& t, std::initializer_list<evg::hw::MemKind> ok,
                        const std::string& op, const char* role, Site site) {
    for (evg::hw::MemKind k : ok)
        if (t.mem == k) return true;
    std::string names;
    for (evg::hw::MemKind k : ok) names += (names.empty() ? "" : " or ") + std::string(evg::hw::mem_name(k));
    return fail(c, evg::hw::ViolationKind::bad_param, op,
                fmt::format("{} must be in {}, not in {}", role, names, evg::hw::mem_name(t.mem)), site);
}

inline bool all_written(const evg::hw::Memory* m, uint64_t off, uint64_t bytes) {
    return m->first_unwritten(off, bytes) < 0;
}

constexpr uint64_t kFractal = 512;    // bytes of an L1/L0A/L0B fractal
constexpr uint64_t kUnitBlock = 512;  // bytes of L0C per unitFlag bit
inline uint64_t round_up(uint64_t x, uint64_t a) {
    return (x + a - 1) / a * a;
}

}  // namespace AscendC::detail::cube
