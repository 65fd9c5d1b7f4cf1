// Vector instructions (PIPE_V). Arithmetic on 16-bit floats widens to float, computes, and rounds once per
// instruction to nearest even. Integer arithmetic wraps. Output lanes are "written" only where every input
// lane was, so garbage lanes carry their taint to wherever they go.
#include "ascendc/vector.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include "evg/hw/machine.hpp"
#include "evg/hw/name_cache.hpp"
#include "evg/hw/numeric/cast_rules.hpp"
#include "evg/hw/numeric/convert.hpp"
#include "evg/hw/numeric/vector_rules.hpp"
#include "operands.hpp"
#include "vector_compute.hpp"
#include "vector_issue.hpp"

namespace AscendC::detail {

using evg::hw::Core;
using evg::hw::DType;
using evg::hw::Memory;
using evg::hw::Pipe;
using evg::hw::ViolationKind;

std::string_view vec_op_name(VecOp op) {
    return evg::hw::vector_op_name(table_op(op));
}

// Reports an element type the instruction does not accept on this chip; false when it did.
bool check_table_dtype(Core& c, evg::hw::VectorOp op, DType t, Site site) {
    const evg::hw::DTypeSet accepted = evg::hw::vector_dtypes(c.arch().id, op);
    if (accepted.contains(t)) return true;
    const std::string_view name = evg::hw::vector_op_name(op);
    c.violate(ViolationKind::illegal_dtype,
              fmt::format("{} does not support element type {} on {} (it accepts {})", name,
                          evg::hw::dtype_name(t), c.arch().name, evg::hw::dtype_list(accepted)),
              {c.site_location(std::string(name), site)});
    return false;
}

bool check_dtype(Core& c, VecOp op, DType t, Site site) {
    return check_table_dtype(c, table_op(op), t, site);
}

namespace {

// Whether every flag byte of one lane is set (flags are 0 or 1: a 2-, 4- or 8-byte lane is one compare).
inline bool lane_written(const uint8_t* f, uint32_t es) {
    switch (es) {
        case 2: {
            uint16_t v;
            std::memcpy(&v, f, 2);
            return v == 0x0101u;
        }
        case 4: {
            uint32_t v;
            std::memcpy(&v, f, 4);
            return v == 0x01010101u;
        }
        case 8: {
            uint64_t v;
            std::memcpy(&v, f, 8);
            return v == 0x0101010101010101u;
        }
        default:
            return std::memchr(f, 0, es) == nullptr;
    }
}

// Sets the Es flag bytes of each of n lanes to lane(i).
template <uint32_t Es, class Lane>
void fill_lanes(uint8_t* out, uint64_t n, const Lane& lane) {
    for (uint64_t i = 0; i < n; ++i) std::memset(out + i * Es, lane(i) ? 1 : 0, Es);
}

}  // namespace

// Output lane i is written iff all of its input lanes were.
void propagate_written(Memory* dm, uint64_t d, std::initializer_list<std::pair<Memory*, uint64_t>> ins,
                       uint64_t n, uint32_t in_es, uint32_t out_es) {
    bool all = true;
    for (auto [m, off] : ins) all &= m->first_unwritten(off, n * in_es) < 0;
    if (all) {
        dm->mark_written(d, n * out_es);
        return;
    }
    // Lane by lane on the flag bytes, in ascending order (an input may overlap the output).
    uint8_t* out = dm->unfolded_written(d, n * out_es);
    std::array<const uint8_t*, 2> in_flags{};  // vector instructions read at most two operands
    size_t inputs = 0;
    for (auto [m, off] : ins) in_flags.at(inputs++) = m->unfolded_written(off, n * in_es);
    // One lane's flags at a time; the switch gives each store a constant size (a property case spends
    // its time here on every tail tile, whose padding lanes are unwritten).
    const auto lane = [&](uint64_t i) {
        bool w = true;
        for (size_t k = 0; k < inputs; ++k) w = w && lane_written(in_flags[k] + i * in_es, in_es);
        return w;
    };
    switch (out_es) {
        case 1:
            fill_lanes<1>(out, n, lane);
            break;
        case 2:
            fill_lanes<2>(out, n, lane);
            break;
        case 4:
            fill_lanes<4>(out, n, lane);
            break;
        case 8:
            fill_lanes<8>(out, n, lane);
            break;
        default:
            for (uint64_t i = 0; i < n; ++i) std::memset(out + i * out_es, lane(i) ? 1 : 0, out_es);
    }
    dm->refold_written(d, n * out_es);
    for (auto [m, off] : ins) m->refold_written(off, n * in_es);
}

void tell_results(Core& c, const evg::hw::Instr& in, evg::hw::FpScan& scan, const Place& d, DType dt,
                  const Place* a, const Place* b, DType st, double scalar, bool has_scalar) {
    const auto des = static_cast<uint64_t>(evg::hw::dtype_size(dt)),
               ses = static_cast<uint64_t>(evg::hw::dtype_size(st));
    const bool track = c.machine().config().checks.uninit;
    for (evg::hw::FpLane& l : scan.lanes) {
        const uint64_t lane = l.dst;
        l.dst = d.off + lane * des;
        if (a) l.src[0] = a->off + lane * ses;
        if (b) l.src[1] = b->off + lane * ses;
        // Never-written operand bytes read as zeros: the padding of a tail tile, which no store keeps.
        if (l.born && track)
            l.unwritten =
                (a && !a->mem->all_written(l.src[0], ses)) || (b && !b->mem->all_written(l.src[1], ses));
    }
    c.machine().notify_result({in,
                               c.index(),
                               d.mem,
                               dt,
                               {a ? a->mem : nullptr, b ? b->mem : nullptr},
                               st,
                               scalar,
                               has_scalar,
                               scan.lanes,
                               scan.subnormal});
}

void convert_scanned(DType from, const uint8_t* s, uint32_t ti, DType to, uint8_t* d, uint32_t to_,
                     RoundMode m, uint64_t count, evg::hw::FpScan& scan) {
    const evg::hw::FpBits fi = evg::hw::FpBits::of(from), fo = evg::hw::FpBits::of(to);
    for (uint64_t i = 0; i < count; ++i) {
        uint8_t before[8];
        std::memcpy(before, s + i * ti, ti);  // the destination may be the source (in place)
        evg::hw::convert_element(from, before, to, d + i * to_, m);
        if (!fo.is_float()) continue;
        const uint32_t bits = fo.load(d + i * to_);
        if (fo.finite(bits)) {
            if (fo.subnormal(bits)) ++scan.subnormal;
            continue;
        }
        evg::hw::FpLane l;
        l.dst = i;
        float x = 0.0f;
        evg::hw::convert_element(from, before, DType::f32, &x, RoundMode::CAST_NONE);
        l.in[0] = x;
        l.wide = x;
        l.cls = fo.cls(bits);
        l.born = !fi.is_float() || fi.finite(fi.load(before));
        scan.lanes.push_back(l);
    }
}

namespace {

// A count form whose operands break the overlap rules is reported and still runs, lane by lane in order:
// hardware's result is undefined only where a lane meets another's bytes, and lanes the kernel never uses
// (past a tile's end) are often those.
void report_overlap(Core& c, std::string_view name, const std::string& msg, Site site) {
    c.violate(ViolationKind::operand_overlap,
              fmt::format("{}: {} (docs/hardware-model.md §6.2: the count form too)", name, msg),
              {c.site_location(std::string(name), site)});
}

void issue_vector(Core& c, VecOp op, DType t, const LocalRef& dst, const LocalRef* a, const LocalRef* b,
                  double scalar, uint64_t count, Site site) {
    if (c.aborting()) return;
    if (!check_dtype(c, op, t, site) || count == 0) return;
    uint64_t bytes = count * static_cast<uint64_t>(evg::hw::dtype_size(t));
    const std::string_view name = vec_op_name(op);
    auto d = local_operand(c, dst, bytes, OperandName(name, "dst"), site);
    std::optional<Place> pa, pb;
    if (a) pa = local_operand(c, *a, bytes, OperandName(name, "src0"), site);
    if (b) pb = local_operand(c, *b, bytes, OperandName(name, "src1"), site);
    if (!d || (a && !pa) || (b && !pb)) return;
    const auto elem = static_cast<uint32_t>(evg::hw::dtype_size(t));
    if (auto msg = count_form_overlap(*d, elem, pa ? &*pa : nullptr, pb ? &*pb : nullptr, elem, count))
        report_overlap(c, name, *msg, site);
    auto in = new_instr(Pipe::V, name, site);
    in->dtype = t;
    if (pa) in->accesses.push_back({pa->mem, pa->off, pa->off + bytes, false, false});
    if (pb) in->accesses.push_back({pb->mem, pb->off, pb->off + bytes, false, false});
    in->accesses.push_back({d->mem, d->off, d->off + bytes, true, false});
    bool track = c.machine().config().checks.uninit;
    const bool tests = c.machine().wants_results();
    in->tests_results = tests;
    Place pd = *d;
    std::optional<Place> qa = pa, qb = pb;
    in->exec = [=](evg::hw::Instr& self) {
        // Inputs may alias the output: take the written-shadow before computing.
        if (track) {
            uint32_t es = static_cast<uint32_t>(evg::hw::dtype_size(t));
            if (qa && qb)
                propagate_written(pd.mem, pd.off, {{qa->mem, qa->off}, {qb->mem, qb->off}}, count, es, es);
            else if (qa)
                propagate_written(pd.mem, pd.off, {{qa->mem, qa->off}}, count, es, es);
            else
                pd.mem->mark_written(pd.off, bytes);
        }
        if (!tests) {
            vec_compute(op, t, pd.mem->data() + pd.off, qa ? qa->mem->data() + qa->off : nullptr,
                        qb ? qb->mem->data() + qb->off : nullptr, scalar, count);
            return;
        }
        evg::hw::FpScan scan;
        vec_compute(op, t, pd.mem->data() + pd.off, qa ? qa->mem->data() + qa->off : nullptr,
                    qb ? qb->mem->data() + qb->off : nullptr, scalar, count, &scan);
        tell_results(*self.core, self, scan, pd, t, qa ? &*qa : nullptr, qb ? &*qb : nullptr, t, scalar,
                     uses_scalar(op));
    };
    c.issue(std::move(in));
}

}  // namespace

void count_form_leaves_mask(Core& c) {
    c.vector_mask() = evg::hw::VectorMask{};
}

void vec_binary(VecOp op, DType t, const LocalRef& dst, const LocalRef& a, const LocalRef& b, uint64_t count,
                Site site) {
    Core& c = evg::hw::current_core();
    issue_vector(c, op, t, dst, &a, &b, 0.0, count, site);
    count_form_leaves_mask(c);
}
void vec_scalar(VecOp op, DType t, const LocalRef& dst, const LocalRef& a, double scalar, uint64_t count,
                Site site) {
    Core& c = evg::hw::current_core();
    issue_vector(c, op, t, dst, &a, nullptr, scalar, count, site);
    count_form_leaves_mask(c);
}
void vec_unary(VecOp op, DType t, const LocalRef& dst, const LocalRef& a, uint64_t count, Site site) {
    Core& c = evg::hw::current_core();
    issue_vector(c, op, t, dst, &a, nullptr, 0.0, count, site);
    count_form_leaves_mask(c);
}
void vec_duplicate(DType t, const LocalRef& dst, double scalar, uint64_t count, Site site) {
    Core& c = evg::hw::current_core();
    issue_vector(c, VecOp::Duplicate, t, dst, nullptr, nullptr, scalar, count, site);
    count_form_leaves_mask(c);
}

void vec_cast(DType to, DType from, const LocalRef& dst, const LocalRef& src, RoundMode m, uint64_t count,
              Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const std::string& name =
        evg::hw::cached_name((uint64_t{static_cast<uint8_t>(to)} << 16) |
                                 (uint64_t{static_cast<uint8_t>(from)} << 8) | static_cast<uint8_t>(m),
                             [&] {
                                 return fmt::format("Cast<{}, {}, {}>", evg::hw::dtype_name(to),
                                                    evg::hw::dtype_name(from), evg::hw::round_mode_name(m));
                             });
    auto rule = evg::hw::cast_rule(c.arch().id, from, to, m);
    if (!rule.legal) {
        c.violate(ViolationKind::illegal_cast, rule.reason, {c.site_location(name, site)});
        return;
    }
    if (count == 0) return;
    uint32_t ti = static_cast<uint32_t>(evg::hw::dtype_size(from)),
             to_ = static_cast<uint32_t>(evg::hw::dtype_size(to));
    auto s = local_operand(c, src, count * ti, OperandName(name, "src"), site);
    auto d = local_operand(c, dst, count * to_, OperandName(name, "dst"), site);
    if (!s || !d) return;
    if (auto msg = count_form_overlap(*d, to_, &*s, nullptr, ti, count)) report_overlap(c, name, *msg, site);
    auto in = new_instr(Pipe::V, name, site);
    in->dtype = from;
    in->accesses.push_back({s->mem, s->off, s->off + count * ti, false, false});
    in->accesses.push_back({d->mem, d->off, d->off + count * to_, true, false});
    bool track = c.machine().config().checks.uninit;
    const bool tests = c.machine().wants_results();
    in->tests_results = tests;
    Place ps = *s, pd = *d;
    in->exec = [=](evg::hw::Instr& self) {
        if (track) propagate_written(pd.mem, pd.off, {{ps.mem, ps.off}}, count, ti, to_);
        if (to_ > ti && ps.mem == pd.mem && pd.off < ps.off + count * ti && ps.off < pd.off + count * to_) {
            // Overlapping widening cast: convert through a copy (hardware gives wrong results; reported
            // when issued, count_form_overlap).
            std::vector<uint8_t> tmp(ps.mem->data() + ps.off, ps.mem->data() + ps.off + count * ti);
            for (uint64_t i = 0; i < count; ++i)
                evg::hw::convert_element(from, tmp.data() + i * ti, to, pd.mem->data() + pd.off + i * to_, m);
            return;
        }
        if (tests) {
            evg::hw::FpScan scan;
            convert_scanned(from, ps.mem->data() + ps.off, ti, to, pd.mem->data() + pd.off, to_, m, count,
                            scan);
            tell_results(*self.core, self, scan, pd, to, &ps, nullptr, from, 0.0, false);
            return;
        }
        for (uint64_t i = 0; i < count; ++i)
            evg::hw::convert_element(from, ps.mem->data() + ps.off + i * ti, to,
                                     pd.mem->data() + pd.off + i * to_, m);
    };
    c.issue(std::move(in));
    count_form_leaves_mask(c);
}

void vec_reduce(int kind, DType t, const LocalRef& dst, const LocalRef& src, const LocalRef& work,
                uint64_t count, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const evg::hw::VectorOp op = kind == 0   ? evg::hw::VectorOp::ReduceSum
                                 : kind == 1 ? evg::hw::VectorOp::ReduceMax
                                             : evg::hw::VectorOp::ReduceMin;
    const char* name = kind == 0 ? "ReduceSum" : (kind == 1 ? "ReduceMax" : "ReduceMin");
    if (!check_table_dtype(c, op, t, site)) return;
    if (count == 0) return;
    uint32_t es = static_cast<uint32_t>(evg::hw::dtype_size(t));
    auto s = local_operand(c, src, count * es, OperandName(name, "src"), site);
    auto d = local_operand(c, dst, es, OperandName(name, "dst"), site);
    auto w = local_operand(c, work, 32, OperandName(name, "work"), site);
    if (!s || !d || !w) return;
    auto in = new_instr(Pipe::V, name, site);
    in->dtype = t;
    in->accesses.push_back({s->mem, s->off, s->off + count * es, false, false});
    in->accesses.push_back({w->mem, w->off, w->off + 32, true, false});
    in->accesses.push_back({d->mem, d->off, d->off + es, true, false});
    bool track = c.machine().config().checks.uninit;
    Place ps = *s, pd = *d, pw = *w;
    in->exec = [=](evg::hw::Instr&) {
        // Accumulates in float in element order and rounds once to the element type.
        float acc = 0.0f;
        for (uint64_t i = 0; i < count; ++i) {
            float v = t == DType::f32 ? Lane<float>::ld(ps.mem->data() + ps.off + i * es)
                                      : Lane<evg::hw::half>::ld(ps.mem->data() + ps.off + i * es);
            if (i == 0)
                acc = v;
            else if (kind == 0)
                acc += v;
            else
                acc = kind == 1 ? nan_max(acc, v) : nan_min(acc, v);
        }
        bool all = ps.mem->first_unwritten(ps.off, count * es) < 0;
        if (t == DType::f32)
            Lane<float>::st(pd.mem->data() + pd.off, acc);
        else
            Lane<evg::hw::half>::st(pd.mem->data() + pd.off, acc);
        if (track) {
            pd.mem->mark_written(pd.off, es, all);
            pw.mem->mark_written(pw.off, 32, true);
        }
    };
    c.issue(std::move(in));
}

}  // namespace AscendC::detail
