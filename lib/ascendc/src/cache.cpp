// DataCacheCleanAndInvalid on the machine: a scalar-unit instruction that writes this core's dirty GM bytes
// back.
#include "ascendc/cache.hpp"

#include <fmt/format.h>

#include "evg/hw/machine.hpp"
#include "operands.hpp"

namespace AscendC::detail {

void data_cache_clean(const void* addr, bool entire, DcciDst dst, Site site) {
    evg::hw::Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    std::string op =
        fmt::format("DataCacheCleanAndInvalid<{}>", entire ? "ENTIRE_DATA_CACHE" : "SINGLE_CACHE_LINE");
    if (dst == DcciDst::CACHELINE_UB || dst == DcciDst::CACHELINE_ATOMIC) {
        // Reserved targets: the call does not make the cache coherent with GM.
        c.violate(
            evg::hw::ViolationKind::bad_param,
            fmt::format("{} with DcciDst::{} is a reserved, unsupported target: nothing is written back to "
                        "GM; use DcciDst::CACHELINE_OUT",
                        op, dst == DcciDst::CACHELINE_UB ? "CACHELINE_UB" : "CACHELINE_ATOMIC"),
            {c.site_location(op, site)}, evg::hw::Severity::warning);
        c.dcache_clean(false, nullptr, 0, 0, op, site);
        return;
    }
    if (entire) {
        c.dcache_clean(true, nullptr, 0, 0, op, site);
        return;
    }
    auto p = gm_operand(c, addr, 1, 1, op, site);
    if (!p) return;
    // One 64-byte line: from the address up to the next 64-byte boundary (GM allocations are 512-byte
    // aligned, so offsets and addresses agree on line boundaries).
    uint64_t end = (p->off / 64 + 1) * 64;
    if (end > p->mem->size()) end = p->mem->size();
    c.dcache_clean(false, p->mem, p->off, end, op, site);
}

}  // namespace AscendC::detail
