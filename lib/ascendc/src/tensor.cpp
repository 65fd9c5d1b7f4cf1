// Scalar access (PIPE_S) to local memory and GM, and UB carving checks.
#include "ascendc/tensor.hpp"

#include <fmt/format.h>

#include <cstring>

#include "evg/hw/machine.hpp"
#include "operands.hpp"

namespace AscendC::detail {

using evg::hw::Core;
using evg::hw::ViolationKind;

namespace {
void scalar_access(Core& c, std::optional<Place> p, void* buf, uint32_t size, bool write,
                   const std::string& op, Site site) {
    if (!p) return;
    auto in = new_instr(evg::hw::Pipe::S, op, site);
    in->accesses.push_back({p->mem, p->off, p->off + size, write, false});
    Place q = *p;
    bool track = c.machine().config().checks.uninit;
    in->exec = [=](evg::hw::Instr& self) {
        if (write) {
            std::memcpy(q.mem->data() + q.off, buf, size);
            q.mem->mark_written(q.off, size);
            return;
        }
        std::memcpy(buf, q.mem->data() + q.off, size);
        if (track && !q.mem->all_written(q.off, size)) {
            evg::hw::Access a{q.mem, q.off, q.off + size, false, false};
            self.core->violate(ViolationKind::uninit_read,
                               fmt::format("{}{} reads never-written bytes [{}, {}) of {} into a scalar",
                                           uninit_cause(*self.core, q.mem, q.off), self.op, q.off,
                                           q.off + size, q.mem->name()),
                               {self.core->location(self, &a)});
        }
    };
    c.scalar(std::move(in));
}
}  // namespace

namespace {
// A scalar access needs only element alignment: bounds are checked here, not the 32-byte vector rule.
std::optional<Place> scalar_place(Core& c, const LocalRef& t, uint64_t byte_off, uint32_t size,
                                  const char* op, Site site) {
    uint64_t addr = t.addr + byte_off;
    evg::hw::Memory* m = c.local(t.mem);
    if (m && m->contains(addr, size)) return Place{m, addr};
    c.violate(ViolationKind::out_of_bounds,
              fmt::format("{} touches {} bytes at {} offset {}, outside the memory", op, size,
                          evg::hw::mem_name(t.mem), addr),
              {c.site_location(op, site)});
    return std::nullopt;
}
}  // namespace

void scalar_read(const LocalRef& t, uint64_t byte_off, void* out, uint32_t size, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    scalar_access(c, scalar_place(c, t, byte_off, size, "GetValue", site), out, size, false, "GetValue",
                  site);
}

void scalar_write(const LocalRef& t, uint64_t byte_off, const void* in, uint32_t size, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const std::optional<Place> p = scalar_place(c, t, byte_off, size, "SetValue", site);
    // The pages it writes go back to the pool cleared (Memory::note_pages); the UB peak counts no scalar
    // access.
    if (p) p->mem->note_pages(p->off, p->off + size);
    scalar_access(c, p, const_cast<void*>(in), size, true, "SetValue", site);
}

void gm_scalar_read(const void* addr, void* out, uint32_t size, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    scalar_access(c, gm_operand(c, addr, size, size, "GlobalTensor::GetValue", site), out, size, false,
                  "GetValue", site);
}

void gm_scalar_write(void* addr, const void* in, uint32_t size, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    scalar_access(c, gm_operand(c, addr, size, size, "GlobalTensor::SetValue", site), const_cast<void*>(in),
                  size, true, "SetValue", site);
}

bool check_carve(TPosition pos, uint64_t offset, uint64_t bytes, const char* what, Site site) {
    Core& c = evg::hw::current_core();
    auto kind = position_memory(pos);
    uint32_t cap = evg::hw::mem_capacity(c.arch(), kind);
    if (offset + bytes <= cap) return true;
    c.violate(ViolationKind::ub_overflow,
              fmt::format("{} carves {} bytes at offset {} of {}, ending at {}; {} has {} B", what, bytes,
                          offset, evg::hw::mem_name(kind), offset + bytes, c.arch().name, cap),
              {c.site_location(what, site)});
    return false;
}

}  // namespace AscendC::detail
