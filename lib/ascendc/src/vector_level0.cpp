// The vector mask register and the element-wise level-0 instructions (vector_level0.hpp). An instruction's
// plan (mask, repeats) is fixed when it is issued, from the core's register as the scalar unit left it. Its
// data effect runs repeat by repeat: a repeat reads the enabled lanes of every source, computes them with the
// lane functions of the count forms (vec_compute, convert_element, apply_f), then writes the enabled lanes
// of dst; masked-off lanes keep their bytes and their written-shadow.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

#include "ascendc/vector_level0.hpp"
#include "evg/hw/machine.hpp"
#include "evg/hw/numeric/cast_rules.hpp"
#include "evg/hw/numeric/convert.hpp"
#include "operands.hpp"
#include "vector_compute.hpp"
#include "vector_issue.hpp"

namespace AscendC::detail {

using evg::hw::Core;
using evg::hw::DType;
using evg::hw::ViolationKind;

// ---- The mask register ----

namespace {
// The bits of the first k lanes (k <= 128).
void first_k_bits(uint64_t k, uint64_t& high, uint64_t& low) {
    low = k >= 64 ? ~uint64_t{0} : (uint64_t{1} << k) - 1;
    high = k >= 128 ? ~uint64_t{0} : (k > 64 ? (uint64_t{1} << (k - 64)) - 1 : 0);
}
}  // namespace

void set_mask_first(uint32_t es, int64_t len, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const int64_t lanes = 256 / es;
    if (len < 0 || len > lanes) {
        bad_param(
            c, "SetVectorMask",
            fmt::format("a first-k mask of {} elements; {}-byte elements allow 0 to {}", len, es, lanes),
            site);
        return;
    }
    evg::hw::VectorMask& m = c.vector_mask();
    first_k_bits(static_cast<uint64_t>(len), m.high, m.low);
}

void set_mask_bits(uint32_t es, uint64_t high, uint64_t low, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    (void)es;
    (void)site;
    evg::hw::VectorMask& m = c.vector_mask();
    m.high = high;
    m.low = low;
}

void set_mask_count(int64_t count, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    if (count < 0) {
        bad_param(c, "SetVectorMask", fmt::format("a counter-mode count of {}", count), site);
        return;
    }
    evg::hw::VectorMask& m = c.vector_mask();
    m.high = 0;
    m.low = static_cast<uint64_t>(count);
}

void set_mask_mode(bool counter, Site site) {
    (void)site;
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    c.vector_mask().counter = counter;
}

void reset_mask(Site site) {
    (void)site;
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    c.vector_mask().high = c.vector_mask().low = ~uint64_t{0};
}

void l0_count_form_begin(uint64_t count) {
    Core& c = evg::hw::current_core();
    c.vector_mask() = {true, 0, count};
}
void l0_count_form_end() {
    count_form_leaves_mask(evg::hw::current_core());
}

std::optional<L0Plan> plan_level0(Core& c, MaskArg mask, uint32_t wide_es, int64_t repeat_time,
                                  std::string_view name, Site site) {
    L0Plan p;
    p.lanes = 256 / wide_es;
    evg::hw::VectorMask& reg = c.vector_mask();
    if (mask.kind == MaskArg::Kind::first_k) {
        if (reg.counter) {
            reg.high = 0;
            reg.low = mask.low;
        } else {
            if (mask.low < 1 || mask.low > p.lanes) {
                bad_param(c, name,
                          fmt::format("first-k mask {} is outside [1, {}] for {}-byte elements", mask.low,
                                      p.lanes, wide_es),
                          site);
                return std::nullopt;
            }
            first_k_bits(mask.low, reg.high, reg.low);
        }
    } else if (mask.kind == MaskArg::Kind::bits) {
        reg.high = mask.high;
        reg.low = mask.low;
    }
    if (reg.counter) {
        p.counter = true;
        p.count = reg.low;
        p.repeats = (p.count + p.lanes - 1) / p.lanes;
        return p;
    }
    if (repeat_time < 0 || repeat_time > 255) {
        bad_param(c, name, fmt::format("repeatTime {} is outside [0, 255]", repeat_time), site);
        return std::nullopt;
    }
    p.low = reg.low;
    p.high = p.lanes > 64 ? reg.high : 0;
    if (p.lanes < 64) p.low &= (uint64_t{1} << p.lanes) - 1;
    if (p.low == 0 && p.high == 0) {
        bad_param(c, name, "the mask enables no element (maskHigh and maskLow are both 0)", site);
        return std::nullopt;
    }
    p.repeats = static_cast<uint64_t>(repeat_time);
    return p;
}

// ---- Accesses ----

void Ranges::add(uint64_t b, uint64_t e) {
    if (!r.empty() && r.back().second == b) {
        r.back().second = e;
        return;
    }
    r.emplace_back(b, e);
}

void Ranges::normalise() {
    if (std::is_sorted(r.begin(), r.end())) {
        bool disjoint = true;
        for (size_t i = 1; i < r.size() && disjoint; ++i) disjoint = r[i - 1].second < r[i].first;
        if (disjoint) return;
    } else {
        std::sort(r.begin(), r.end());
    }
    std::vector<std::pair<uint64_t, uint64_t>> out;
    for (const auto& x : r) {
        if (!out.empty() && x.first <= out.back().second)
            out.back().second = std::max(out.back().second, x.second);
        else
            out.push_back(x);
    }
    r.swap(out);
}

std::optional<Place> level0_operand(Core& c, const LocalRef& ref, const Ranges& rs, bool write,
                                    evg::hw::Instr* in, OperandName what, Site site) {
    auto p = local_operand(c, ref, rs.extent(), what, site);
    if (p && in) push_accesses(*in, *p, rs, write);
    return p;
}

void push_accesses(evg::hw::Instr& in, const Place& p, const Ranges& rs, bool write) {
    for (const auto& [b, e] : rs.r) in.accesses.push_back({p.mem, p.off + b, p.off + e, write, false});
}

// ---- Element-wise level-0 instructions ----

namespace {

struct OperandPlan {
    L0Operand op;
    Place place{};
    Ranges ranges;
};

Ranges lane_ranges(const L0Plan& plan, const L0Operand& o) {
    Ranges rs;
    for (uint64_t r = 0; r < plan.repeats; ++r)
        for (uint32_t k = 0; k < plan.lanes; ++k)
            if (plan.enabled(r, k)) {
                const uint64_t off = lane_offset(r, k, o.es, o.blk, o.rep);
                rs.add(off, off + o.es);
            }
    rs.normalise();
    return rs;
}

// The overlap rules (docs/hardware-model.md §6.2): within a repeat a source and dst overlap entirely (the
// same lanes at the same addresses) or not at all; no repeat reads what an earlier repeat wrote, except dst
// on src1 of Add/Sub/Mul/Max/Min in half/int32/float with src1's or dst's repeat stride 0. Returns a message.
std::optional<std::string> overlap_violation(const L0Call& call, const L0Plan& plan, const OperandPlan& d,
                                             const OperandPlan* const srcs[2]) {
    std::map<uint64_t, uint64_t> written;  // absolute [begin, end) of dst lanes of earlier repeats, merged
    const auto hits_written = [&](uint64_t b, uint64_t e) {
        auto it = written.upper_bound(b);
        if (it != written.begin() && std::prev(it)->second > b) return true;
        return it != written.end() && it->first < e;
    };
    const auto note_written = [&](uint64_t b, uint64_t e) {
        auto it = written.upper_bound(b);
        if (it != written.begin() && std::prev(it)->second >= b) {
            auto p = std::prev(it);
            p->second = std::max(p->second, e);
            return;
        }
        written.emplace(b, e);
    };
    const uint64_t dbase = d.place.off;
    for (uint64_t r = 0; r < plan.repeats; ++r) {
        uint64_t dlo = UINT64_MAX, dhi = 0;  // the span of this repeat's dst lanes
        for (uint32_t k = 0; k < plan.lanes; ++k) {
            if (!plan.enabled(r, k)) continue;
            const uint64_t b = dbase + lane_offset(r, k, d.op.es, d.op.blk, d.op.rep);
            dlo = std::min(dlo, b);
            dhi = std::max(dhi, b + d.op.es);
        }
        for (int s = 0; s < 2; ++s) {
            const OperandPlan* x = srcs[s];
            if (!x || x->place.mem != d.place.mem) continue;
            const bool excepted =
                s == 1 && call.kind == L0Kind::element &&
                (call.op == VecOp::Add || call.op == VecOp::Sub || call.op == VecOp::Mul ||
                 call.op == VecOp::Max || call.op == VecOp::Min) &&
                (call.dtype == DType::f16 || call.dtype == DType::i32 || call.dtype == DType::f32) &&
                (x->op.rep == 0 || d.op.rep == 0);
            const bool same_lanes = x->op.es == d.op.es && x->op.blk == d.op.blk &&
                                    x->place.off + r * x->op.rep * 32 == dbase + r * d.op.rep * 32;
            for (uint32_t k = 0; k < plan.lanes; ++k) {
                if (!plan.enabled(r, k)) continue;
                const uint64_t xb = x->place.off + lane_offset(r, k, x->op.es, x->op.blk, x->op.rep);
                if (!excepted && r > 0 && hits_written(xb, xb + x->op.es))
                    return fmt::format(
                        "repeat {} reads src{} bytes [{}, {}) that an earlier repeat wrote to dst", r, s, xb,
                        xb + x->op.es);
                if (same_lanes || xb + x->op.es <= dlo || xb >= dhi) continue;
                // Inside the span of this repeat's dst: a dst lane it touches makes a partial overlap.
                for (uint32_t j = 0; j < plan.lanes; ++j) {
                    if (!plan.enabled(r, j)) continue;
                    const uint64_t db = dbase + lane_offset(r, j, d.op.es, d.op.blk, d.op.rep);
                    if (xb < db + d.op.es && db < xb + x->op.es)
                        return fmt::format(
                            "repeat {}: src{} and dst overlap partly (src{} byte {}, dst byte {}); "
                            "within a repeat they must overlap entirely or not at all",
                            r, s, s, xb, db);
                }
            }
        }
        for (uint32_t k = 0; k < plan.lanes; ++k) {
            if (!plan.enabled(r, k)) continue;
            const uint64_t b = dbase + lane_offset(r, k, d.op.es, d.op.blk, d.op.rep);
            note_written(b, b + d.op.es);
        }
    }
    return std::nullopt;
}

std::string call_name(const L0Call& call) {
    switch (call.kind) {
        case L0Kind::element:
            return std::string(vec_op_name(call.op));
        case L0Kind::cast:
            return fmt::format("Cast<{}, {}, {}>", evg::hw::dtype_name(call.dtype),
                               evg::hw::dtype_name(call.src_dtype), evg::hw::round_mode_name(call.round));
        case L0Kind::copy:
            return "Copy";
        case L0Kind::mul_add_dst:
            return "MulAddDst";
        case L0Kind::axpy:
            return "Axpy";
    }
    return "?";
}

bool check_call_dtypes(Core& c, const L0Call& call, const std::string& name, Site site) {
    using V = evg::hw::VectorOp;
    switch (call.kind) {
        case L0Kind::element:
            return check_dtype(c, call.op, call.dtype, site);
        case L0Kind::cast: {
            auto rule = evg::hw::cast_rule(c.arch().id, call.src_dtype, call.dtype, call.round);
            if (!rule.legal)
                c.violate(ViolationKind::illegal_cast, rule.reason, {c.site_location(name, site)});
            return rule.legal;
        }
        case L0Kind::copy:
            return check_table_dtype(c, V::Copy, call.dtype, site);
        case L0Kind::mul_add_dst:
            return check_table_dtype(c, V::MulAddDst, call.dtype, site) &&
                   check_table_dtype(c, V::MulAddDst, call.src_dtype, site);
        case L0Kind::axpy:
            return check_table_dtype(c, V::Axpy, call.dtype, site) &&
                   check_table_dtype(c, V::Axpy, call.src_dtype, site);
    }
    return false;
}

// One repeat's data effect on gathered lanes: d (dst's es per lane) from a, b and the old d.
void compute_lanes(const L0Call& call, uint8_t* d, const uint8_t* a, const uint8_t* b, uint32_t n,
                   uint32_t des, uint32_t ses) {
    switch (call.kind) {
        case L0Kind::element:
            vec_compute(call.op, call.dtype, d, a, b, call.scalar, n);
            return;
        case L0Kind::cast:
            for (uint32_t i = 0; i < n; ++i)
                evg::hw::convert_element(call.src_dtype, a + i * ses, call.dtype, d + i * des, call.round);
            return;
        case L0Kind::copy:
            std::memcpy(d, a, size_t{n} * des);
            return;
        case L0Kind::mul_add_dst:
        case L0Kind::axpy: {
            const auto s = static_cast<float>(call.scalar);
            for (uint32_t i = 0; i < n; ++i) {
                const float x = load_float(a + i * ses, call.src_dtype);
                const float prod =
                    call.kind == L0Kind::axpy
                        ? apply_f(VecOp::Muls, x, 0.0f, s)
                        : apply_f(VecOp::Mul, x, load_float(b + i * ses, call.src_dtype), 0.0f);
                store_float(d + i * des, call.dtype,
                            apply_f(VecOp::Add, prod, load_float(d + i * des, call.dtype), 0.0f));
            }
            return;
        }
    }
}

}  // namespace

std::optional<std::string> count_form_overlap(const Place& dst, uint32_t dst_es, const Place* src0,
                                              const Place* src1, uint32_t src_es, uint64_t count) {
    // Only a source in dst's memory whose bytes meet dst's, other than at the same address with the same
    // element size (each repeat then overlaps entirely), can break the rules.
    const auto meets = [&](const Place* x) {
        if (!x || x->mem != dst.mem) return false;
        if (x->off == dst.off && src_es == dst_es) return false;
        return x->off < dst.off + count * dst_es && dst.off < x->off + count * src_es;
    };
    if (!meets(src0) && !meets(src1)) return std::nullopt;
    L0Plan plan;
    plan.lanes = 256 / std::max(dst_es, src_es);
    plan.counter = true;
    plan.count = count;
    plan.repeats = (count + plan.lanes - 1) / plan.lanes;
    const auto operand = [&](const Place& p, uint32_t es) {
        OperandPlan o;
        o.op.es = es;
        o.op.blk = 1;
        o.op.rep = plan.lanes * es / 32;  // contiguous: a repeat starts where the previous one ended
        o.place = p;
        return o;
    };
    const OperandPlan d = operand(dst, dst_es);
    std::optional<OperandPlan> a, b;
    if (src0) a = operand(*src0, src_es);
    if (src1) b = operand(*src1, src_es);
    const OperandPlan* srcs[2] = {a ? &*a : nullptr, b ? &*b : nullptr};
    L0Call call;
    call.kind = L0Kind::copy;  // no overlap exception applies to a count form: its repeat strides are not 0
    const auto msg = overlap_violation(call, plan, d, srcs);
    if (!msg) return std::nullopt;
    const Place* x = meets(src0) ? src0 : src1;
    return fmt::format("{} lanes of dst from byte {} and of src{} from byte {}: {}", count, dst.off,
                       x == src0 ? 0 : 1, x->off, *msg);
}

void vec_level0(const L0Call& call, const L0Operand& dst, const L0Operand* src0, const L0Operand* src1,
                MaskArg mask, int64_t repeat_time, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const std::string name = call_name(call);
    if (!check_call_dtypes(c, call, name, site)) return;
    if (dst.blk == 0) {
        bad_param(c, name, "dstBlkStride 0 is undefined", site);
        return;
    }
    uint32_t wide = dst.es;
    if (src0) wide = std::max(wide, src0->es);
    if (src1) wide = std::max(wide, src1->es);
    auto plan = plan_level0(c, mask, wide, repeat_time, name, site);
    if (!plan || plan->repeats == 0) return;

    auto in = new_instr(evg::hw::Pipe::V, name, site);
    in->dtype = call.kind == L0Kind::element ? call.dtype : call.src_dtype;
    in->repeats = static_cast<uint32_t>(std::min<uint64_t>(plan->repeats, UINT32_MAX));
    OperandPlan pd{dst, {}, lane_ranges(*plan, dst)};
    std::optional<OperandPlan> pa, pb;
    if (src0) pa = OperandPlan{*src0, {}, lane_ranges(*plan, *src0)};
    if (src1) pb = OperandPlan{*src1, {}, lane_ranges(*plan, *src1)};
    auto qa = pa ? level0_operand(c, src0->ref, pa->ranges, false, nullptr, OperandName(name, "src0"), site)
                 : std::optional<Place>{};
    auto qb = pb ? level0_operand(c, src1->ref, pb->ranges, false, nullptr, OperandName(name, "src1"), site)
                 : std::optional<Place>{};
    auto qd = level0_operand(c, dst.ref, pd.ranges, true, nullptr, OperandName(name, "dst"), site);
    if (!qd || (pa && !qa) || (pb && !qb)) return;
    pd.place = *qd;
    if (pa) pa->place = *qa;
    if (pb) pb->place = *qb;
    const OperandPlan* srcs[2] = {pa ? &*pa : nullptr, pb ? &*pb : nullptr};
    if (auto msg = overlap_violation(call, *plan, pd, srcs)) {
        c.violate(ViolationKind::operand_overlap,
                  fmt::format("{}: {} (docs/hardware-model.md §6.2)", name, *msg),
                  {c.site_location(std::string(name), site)});
        return;
    }
    const bool mad = call.kind == L0Kind::mul_add_dst || call.kind == L0Kind::axpy;
    if (pa) push_accesses(*in, pa->place, pa->ranges, false);
    if (pb) push_accesses(*in, pb->place, pb->ranges, false);
    if (mad) push_accesses(*in, pd.place, pd.ranges, false);
    push_accesses(*in, pd.place, pd.ranges, true);

    const bool track = c.machine().config().checks.uninit;
    struct Lean {
        L0Operand op;
        Place place;
    };
    const Lean ld{dst, *qd};
    const std::optional<Lean> la = pa ? std::optional<Lean>{Lean{*src0, *qa}} : std::nullopt;
    const std::optional<Lean> lb = pb ? std::optional<Lean>{Lean{*src1, *qb}} : std::nullopt;
    const L0Plan p = *plan;
    const L0Call cl = call;
    in->exec = [=](evg::hw::Instr&) {
        const uint32_t des = ld.op.es, ses = la ? la->op.es : des;
        std::vector<uint8_t> ta(size_t{p.lanes} * ses), tb(size_t{p.lanes} * ses), td(size_t{p.lanes} * des);
        std::vector<uint32_t> ks;
        std::vector<uint8_t> w;
        ks.reserve(p.lanes);
        for (uint64_t r = 0; r < p.repeats; ++r) {
            ks.clear();
            for (uint32_t k = 0; k < p.lanes; ++k)
                if (p.enabled(r, k)) ks.push_back(k);
            const auto n = static_cast<uint32_t>(ks.size());
            if (n == 0) continue;
            const auto addr = [&](const Lean& o, uint32_t k) {
                return o.place.off + lane_offset(r, k, o.op.es, o.op.blk, o.op.rep);
            };
            w.assign(n, 1);
            const auto gather = [&](const Lean& o, std::vector<uint8_t>& t) {
                for (uint32_t i = 0; i < n; ++i) {
                    const uint64_t a = addr(o, ks[i]);
                    std::memcpy(t.data() + size_t{i} * o.op.es, o.place.mem->data() + a, o.op.es);
                    if (track && w[i] && !o.place.mem->all_written(a, o.op.es)) w[i] = 0;
                }
            };
            if (la) gather(*la, ta);
            if (lb) gather(*lb, tb);
            if (mad) gather(ld, td);
            compute_lanes(cl, td.data(), la ? ta.data() : nullptr, lb ? tb.data() : nullptr, n, des, ses);
            for (uint32_t i = 0; i < n; ++i) {
                const uint64_t a = addr(ld, ks[i]);
                std::memcpy(ld.place.mem->data() + a, td.data() + size_t{i} * des, des);
                if (track) ld.place.mem->mark_written(a, des, w[i] != 0);
            }
        }
    };
    c.issue(std::move(in));
}

}  // namespace AscendC::detail
