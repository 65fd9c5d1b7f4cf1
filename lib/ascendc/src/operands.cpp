#include "operands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "evg/hw/device.hpp"
#include "evg/hw/instr_pool.hpp"
#include "evg/hw/machine.hpp"

namespace AscendC::detail {

using evg::hw::Location;
using evg::hw::ViolationKind;

std::optional<Place> local_operand(evg::hw::Core& c, const LocalRef& t, uint64_t bytes, OperandName name,
                                   Site site) {
    const auto what = [&name] { return name.str(); };
    evg::hw::Memory* m = c.local(t.mem);
    const auto& chk = c.machine().config().checks;
    if (!m) {
        c.violate(ViolationKind::bad_param,
                  fmt::format("{}: {} has no {} memory", what(), c.name(), evg::hw::mem_name(t.mem)),
                  {c.site_location(what(), site)});
        return std::nullopt;
    }
    // (The operand's name is put together only when a message needs it, as for every check here.)
    if (chk.uninit && evg::hw::is_uninit_fill(t.addr)) {
        c.report_uninit_value("address", t.addr, what(), site, "", 0);
        return std::nullopt;
    }
    if (!m->contains(t.addr, bytes)) {
        // Out of the physical memory: never executed, whatever the checker switches say.
        c.violate(ViolationKind::out_of_bounds,
                  fmt::format("{} touches {} bytes [{}, {}), beyond the {} B of {}", what(),
                              evg::hw::mem_name(t.mem), t.addr, t.addr + bytes, m->size(), m->name()),
                  {c.site_location(what(), site)});
        return std::nullopt;
    }
    uint32_t align = evg::hw::mem_alignment(c.arch(), t.mem);
    if (chk.memory && align > 1 && t.addr % align != 0)
        c.violate(ViolationKind::misaligned,
                  fmt::format("{} address {} in {} is not {}-byte aligned", what(), t.addr, m->name(), align),
                  {c.site_location(what(), site)});
    if (bytes) m->note_touch(t.addr, t.addr + bytes);
    return Place{m, t.addr};
}

std::optional<Place> gm_operand(evg::hw::Core& c, const void* p, uint64_t bytes, uint32_t align,
                                OperandName name, Site site) {
    const auto what = [&name] { return name.str(); };
    if (!p) {
        c.violate(ViolationKind::null_pointer, fmt::format("{} uses a null GM pointer", what()),
                  {c.site_location(what(), site)});
        return std::nullopt;
    }
    if (c.machine().config().checks.uninit && evg::hw::is_uninit_fill(reinterpret_cast<uintptr_t>(p))) {
        c.report_uninit_value("GM address", reinterpret_cast<uintptr_t>(p), what(), site, "", 0);
        return std::nullopt;
    }
    auto r = c.machine().device().find(p);
    if (!r) {
        c.violate(ViolationKind::out_of_bounds,
                  fmt::format("{}: GM address {} is not inside any allocation: it is {}", what(), p,
                              c.machine().device().place_of_stray(p)),
                  {c.site_location(what(), site)});
        return std::nullopt;
    }
    if (!r->mem->contains(r->offset, bytes)) {
        c.violate(ViolationKind::out_of_bounds,
                  fmt::format("{} touches GM bytes [{}, {}) of {}, which has {} B", what(), r->offset,
                              r->offset + bytes, r->mem->name(), r->mem->size()),
                  {c.site_location(what(), site)});
        return std::nullopt;
    }
    if (c.machine().config().checks.memory && align > 1 && reinterpret_cast<uintptr_t>(p) % align != 0)
        c.violate(ViolationKind::misaligned,
                  fmt::format("{}: GM address {} (offset {} in {}) is not {}-byte aligned", what(), p,
                              r->offset, r->mem->name(), align),
                  {c.site_location(what(), site)});
    return Place{r->mem, r->offset};
}

std::unique_ptr<evg::hw::Instr> new_instr(evg::hw::Pipe pipe, std::string_view op, Site site) {
    auto in = evg::hw::take_instr();
    in->pipe = pipe;
    in->op.assign(op);  // into the recycled name's storage
    in->site = site;
    return in;
}

void bad_param(evg::hw::Core& c, std::string_view name, const std::string& msg, Site site,
               evg::hw::Severity sev) {
    c.violate(ViolationKind::bad_param, fmt::format("{}: {}", name, msg),
              {c.site_location(std::string(name), site)}, sev);
}

namespace {
// A load from GM into a core's memory that read bytes nobody wrote is noted on the core (Core::UninitLoad).
void note_gm_load(evg::hw::Instr& in, const evg::hw::Memory* dst, uint64_t dst_off,
                  const evg::hw::Memory* src, uint64_t src_off, uint64_t bytes) {
    const std::optional<UnwrittenSpan> span = unwritten_span(*src, src_off, bytes);
    if (!span) return;
    const bool none_written = span->count == src->size() || [&] {
        if (in.core->uninit_loads().size() >= evg::hw::Core::kUninitLoads) return false;
        std::vector<uint8_t> all(src->size());
        src->read_written(0, src->size(), all.data());
        return std::find(all.begin(), all.end(), uint8_t{1}) == all.end();
    }();
    in.core->note_uninit_load({src, span->first, span->end, span->count, none_written, dst, dst_off,
                               dst_off + bytes, in.id, in.op, in.site});
}
}  // namespace

std::optional<UnwrittenSpan> unwritten_span(const evg::hw::Memory& m, uint64_t offset, uint64_t bytes) {
    const int64_t first = m.first_unwritten(offset, bytes);
    if (first < 0) return std::nullopt;
    std::vector<uint8_t> flags(bytes);
    m.read_written(offset, bytes, flags.data());
    UnwrittenSpan s;
    s.first = static_cast<uint64_t>(first);
    for (uint64_t i = 0; i < bytes; ++i)
        if (!flags[i]) {
            ++s.count;
            s.end = offset + i + 1;
        }
    return s;
}

bool copy_bytes(evg::hw::Instr& in, evg::hw::Memory* dst, uint64_t dst_off, evg::hw::Memory* src,
                uint64_t src_off, uint64_t bytes, bool reported_already) {
    evg::hw::move_bytes(dst->data() + dst_off, src->data() + src_off, bytes);
    if (in.core->machine().wants_results())
        in.core->machine().notify_move({in, in.core->index(), dst, dst_off, src, src_off, bytes});
    // The written-shadow serves the uninitialised-data checker only: without that checker the vector
    // instructions do not keep it, it means nothing, and copying it would be work for nothing.
    if (!in.core->machine().config().checks.uninit) return true;
    dst->copy_written(dst_off, *src, src_off, bytes);
    if (dst->kind() != evg::hw::MemKind::GM) {
        if (src->kind() == evg::hw::MemKind::GM) note_gm_load(in, dst, dst_off, src, src_off, bytes);
        return true;
    }
    if (reported_already) return true;
    int64_t bad = src->first_unwritten(src_off, bytes);
    if (bad < 0) return true;
    evg::hw::Access a{src, static_cast<uint64_t>(bad), static_cast<uint64_t>(bad) + 1, false, false};
    Location l = in.core->location(in, &a);
    in.core->violate(
        ViolationKind::uninit_to_gm,
        fmt::format("{}{} stores never-written bytes to GM: byte {} of {} (copied to {} offset {}) was "
                    "never written",
                    uninit_cause(*in.core, src, static_cast<uint64_t>(bad)), in.op, bad, src->name(),
                    dst->name(), dst_off + (static_cast<uint64_t>(bad) - src_off)),
        {l});
    return false;
}

std::string uninit_cause(const evg::hw::Core& c, const evg::hw::Memory* mem, uint64_t byte) {
    const auto& loads = c.uninit_loads();
    if (loads.empty()) return {};
    // "deviceX was never written: no aclrtMemcpy or aclrtMemset reached it, and no kernel stored to it
    // (...)".
    const auto never_written = [](const evg::hw::Core::UninitLoad& l) {
        const std::string buffer =
            fmt::format("{} bytes{}", l.gm->size(), l.gm->origin().empty() ? "" : ", " + l.gm->origin());
        if (l.none_written)
            return fmt::format(
                "{} was never written: no aclrtMemcpy or aclrtMemset reached it, and no kernel "
                "stored to it ({})",
                l.gm->name(), buffer);
        return fmt::format(
            "{} byte(s) of {} in [{}, {}) were never written: no aclrtMemcpy or aclrtMemset reached "
            "them, and no kernel stored to them ({}: {})",
            l.unwritten, l.gm->name(), l.gm_begin, l.gm_end, l.gm->name(), buffer);
    };
    for (const auto& l : loads)
        if (l.dst == mem && byte >= l.dst_begin && byte < l.dst_end)
            return fmt::format("{}; #{} {} at {} loaded bytes [{}, {}) of it into {} [{}, {}). ",
                               never_written(l), l.instr, l.op, l.site.str(), l.gm_begin, l.gm_end,
                               l.dst->name(), l.dst_begin, l.dst_end);
    const auto& l = loads.front();
    return fmt::format(
        "Likely cause: {}; {} loaded bytes [{}, {}) of it with #{} {} at {} into {} [{}, {}), and "
        "never-written bytes reach this instruction. ",
        never_written(l), c.name(), l.gm_begin, l.gm_end, l.instr, l.op, l.site.str(), l.dst->name(),
        l.dst_begin, l.dst_end);
}

float load_float(const uint8_t* p, evg::hw::DType t) {
    uint16_t h;
    float f;
    switch (t) {
        case evg::hw::DType::f16:
            std::memcpy(&h, p, 2);
            return evg::hw::half_to_float(h);
        case evg::hw::DType::bf16:
            std::memcpy(&h, p, 2);
            return evg::hw::bf16_to_float(h);
        default:
            std::memcpy(&f, p, 4);
            return f;
    }
}

void store_float(uint8_t* p, evg::hw::DType t, float v) {
    if (t == evg::hw::DType::f32) {
        std::memcpy(p, &v, 4);
        return;
    }
    uint16_t b = t == evg::hw::DType::f16 ? evg::hw::float_to_half(v, evg::hw::RoundMode::CAST_RINT)
                                          : evg::hw::float_to_bf16(v, evg::hw::RoundMode::CAST_RINT);
    std::memcpy(p, &b, 2);
}

namespace {
template <class T>
T combine(evg::hw::AtomicOp op, T a, T b) {
    if (op == evg::hw::AtomicOp::add) return a + b;
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(a)) return a;
        if (std::isnan(b)) return b;
        // -0 is below +0, as for the vector Max/Min (IEEE 754-2019 maximum/minimum): otherwise a max/min
        // reduction of signed zeros would depend on the order in which the atomics land.
        if (a == b) return (op == evg::hw::AtomicOp::max) == std::signbit(a) ? b : a;
    }
    return op == evg::hw::AtomicOp::max ? (a > b ? a : b) : (a < b ? a : b);
}
}  // namespace

void atomic_element(uint8_t* d, const uint8_t* v, evg::hw::DType t, evg::hw::AtomicOp op) {
    if (evg::hw::dtype_is_float(t)) {
        store_float(d, t, combine(op, load_float(d, t), load_float(v, t)));
        return;
    }
    auto size = static_cast<size_t>(evg::hw::dtype_size(t));
    int64_t a = 0, b = 0;
    switch (t) {
        case evg::hw::DType::i8:
            a = *reinterpret_cast<const int8_t*>(d);
            b = *reinterpret_cast<const int8_t*>(v);
            break;
        case evg::hw::DType::i16: {
            int16_t x, y;
            std::memcpy(&x, d, 2);
            std::memcpy(&y, v, 2);
            a = x;
            b = y;
            break;
        }
        default: {
            int32_t x, y;
            std::memcpy(&x, d, 4);
            std::memcpy(&y, v, 4);
            a = x;
            b = y;
        }
    }
    int64_t r = evg::hw::int_saturate(combine(op, a, b), t);
    std::memcpy(d, &r, size);  // little-endian: the low bytes hold the narrowed value
}

}  // namespace AscendC::detail
