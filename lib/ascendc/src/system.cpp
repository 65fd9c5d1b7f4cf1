// InitConstValue on the machine: one PIPE_MTE2 instruction writing runs of 32-byte blocks with a value.
#include "ascendc/system.hpp"

#include <fmt/format.h>

#include <cstring>
#include <vector>

#include "evg/hw/machine.hpp"
#include "operands.hpp"

namespace AscendC::detail {

void init_const_value(const LocalRef& dst, uint16_t repeat, uint16_t block_num, uint16_t dst_gap,
                      const void* value, uint32_t elem, Site site) {
    evg::hw::Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    static constexpr const char* op = "InitConstValue";
    if (dst.mem != evg::hw::MemKind::L1 && dst.mem != evg::hw::MemKind::L0A &&
        dst.mem != evg::hw::MemKind::L0B) {
        c.violate(evg::hw::ViolationKind::bad_param,
                  fmt::format("{} writes {}; it initialises only L1 (A1/B1), L0A (A2) and L0B (B2)", op,
                              evg::hw::mem_name(dst.mem)),
                  {c.site_location(op, site)});
        return;
    }
    if (repeat == 0 || block_num == 0) return;
    const uint64_t run = uint64_t(block_num) * 32;
    const uint64_t pitch = (uint64_t(block_num) + dst_gap) * 32;
    const uint64_t span = (uint64_t(repeat) - 1) * pitch + run;
    auto place = local_operand(c, dst, span, OperandName(op, "dst"), site);
    if (!place) return;
    auto in = new_instr(evg::hw::Pipe::MTE2, op, site);
    std::vector<uint64_t> starts;
    starts.reserve(repeat);
    for (uint64_t r = 0; r < repeat; ++r) {
        starts.push_back(place->off + r * pitch);
        in->accesses.push_back({place->mem, starts.back(), starts.back() + run, true, false});
    }
    uint64_t pattern = 0;
    std::memcpy(&pattern, value, elem);
    evg::hw::Memory* m = place->mem;
    in->exec = [m, starts = std::move(starts), run, pattern, elem](evg::hw::Instr&) {
        for (uint64_t s : starts) {
            for (uint64_t b = 0; b < run; b += elem) std::memcpy(m->data() + s + b, &pattern, elem);
            m->mark_written(s, run);
        }
    };
    c.issue(std::move(in));
}

}  // namespace AscendC::detail
