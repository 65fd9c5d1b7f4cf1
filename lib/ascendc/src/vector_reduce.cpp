// Per-block and per-repeat reductions, Brcb, Compare and Select (vector_reduce.hpp, vector_select.hpp).
// Sums combine adjacent lanes pairwise, level by level, with the Add lane function of the count forms
// (apply_f), each partial sum rounded to the element type; a half partial sum that overflows finite operands
// saturates at +-65504. Max and Min use the Max/Min lane functions. A lane the mask disables takes no part;
// a block (or repeat) with no enabled lane writes nothing.
#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

#include "ascendc/vector_reduce.hpp"
#include "ascendc/vector_select.hpp"
#include "evg/hw/machine.hpp"
#include "operands.hpp"
#include "vector_compute.hpp"
#include "vector_issue.hpp"

namespace AscendC::detail {

using evg::hw::Core;
using evg::hw::DType;
using evg::hw::ViolationKind;

namespace {

const char* reduce_name(L0Reduce k) {
    switch (k) {
        case L0Reduce::block_sum:
            return "BlockReduceSum";
        case L0Reduce::block_max:
            return "BlockReduceMax";
        case L0Reduce::block_min:
            return "BlockReduceMin";
        case L0Reduce::whole_sum:
            return "WholeReduceSum";
        case L0Reduce::whole_max:
            return "WholeReduceMax";
        case L0Reduce::whole_min:
            return "WholeReduceMin";
        case L0Reduce::repeat_sum:
            return "RepeatReduceSum";
    }
    return "?";
}

evg::hw::VectorOp reduce_rule(L0Reduce k) {
    using V = evg::hw::VectorOp;
    switch (k) {
        case L0Reduce::block_sum:
            return V::BlockReduceSum;
        case L0Reduce::block_max:
            return V::BlockReduceMax;
        case L0Reduce::block_min:
            return V::BlockReduceMin;
        case L0Reduce::whole_sum:
            return V::WholeReduceSum;
        case L0Reduce::whole_max:
            return V::WholeReduceMax;
        case L0Reduce::whole_min:
            return V::WholeReduceMin;
        case L0Reduce::repeat_sum:
            return V::RepeatReduceSum;
    }
    return V::BlockReduceSum;
}

bool is_sum(L0Reduce k) {
    return k == L0Reduce::block_sum || k == L0Reduce::whole_sum || k == L0Reduce::repeat_sum;
}
bool is_max(L0Reduce k) {
    return k == L0Reduce::block_max || k == L0Reduce::whole_max;
}
bool per_block(L0Reduce k) {
    return k == L0Reduce::block_sum || k == L0Reduce::block_max || k == L0Reduce::block_min;
}

// Rounds a float to the element type as a lane result (half: nearest even).
float round_to(DType t, float v) {
    uint8_t b[4];
    store_float(b, t, v);
    return load_float(b, t);
}

// x (op) y for two present partial results.
float combine(L0Reduce k, DType t, float x, float y) {
    if (!is_sum(k)) return is_max(k) ? nan_max(x, y) : nan_min(x, y);
    float s = round_to(t, apply_f(VecOp::Add, x, y, 0.0f));
    if (t == DType::f16 && std::isinf(s) && std::isfinite(x) && std::isfinite(y))
        s = std::copysign(65504.0f, s);
    return s;
}

// The pairwise tree over n (a power of two) lanes, absent lanes skipped; nullopt when none is present.
std::optional<float> tree(L0Reduce k, DType t, std::vector<std::optional<float>> v) {
    while (v.size() > 1) {
        std::vector<std::optional<float>> next(v.size() / 2);
        for (size_t i = 0; i < next.size(); ++i) {
            const auto& a = v[2 * i];
            const auto& b = v[2 * i + 1];
            if (a && b)
                next[i] = combine(k, t, *a, *b);
            else
                next[i] = a ? a : b;
        }
        v.swap(next);
    }
    return v.empty() ? std::nullopt : v[0];
}

// A reduction's dst, which needs the alignment of its element only (the documented rule of
// WholeReduce/RepeatReduce; taken for BlockReduce too, whose results per repeat are 8 elements): resolved
// from its 32-byte-aligned block, with the element alignment checked here.
std::optional<Place> element_aligned(Core& c, LocalRef ref, Ranges rs, uint32_t es, evg::hw::Instr* in,
                                     OperandName what, Site site) {
    const uint64_t skew = ref.addr % 32;
    if (ref.addr % es != 0 && c.machine().config().checks.memory)
        c.violate(ViolationKind::misaligned,
                  fmt::format("{} address {} is not {}-byte aligned", what.str(), ref.addr, es),
                  {c.site_location(what.str(), site)});
    ref.addr -= skew;
    for (auto& r : rs.r) r.first += skew, r.second += skew;
    auto p = level0_operand(c, ref, rs, true, in, what, site);
    if (p) p->off += skew;
    return p;
}

}  // namespace

void vec_reduce_level0(L0Reduce kind, DType t, const LocalRef& dst, const LocalRef& src, MaskArg mask,
                       int64_t repeat_time, int64_t dst_rep, int64_t src_blk, int64_t src_rep, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const char* name = reduce_name(kind);
    if (!check_table_dtype(c, reduce_rule(kind), t, site)) return;
    if (dst_rep < 0 || src_blk < 0 || src_rep < 0 || dst_rep > 0xffff || src_blk > 0xffff ||
        src_rep > 0xffff) {
        bad_param(
            c, name,
            fmt::format("strides dstRepStride {}, srcBlkStride {}, srcRepStride {} are outside [0, 65535]",
                        dst_rep, src_blk, src_rep),
            site);
        return;
    }
    const auto es = static_cast<uint32_t>(evg::hw::dtype_size(t));
    auto plan = plan_level0(c, mask, es, repeat_time, name, site);
    if (!plan || plan->repeats == 0) return;
    const uint32_t epb = 32 / es;  // elements per block
    const L0Operand so{src, es, static_cast<uint32_t>(src_blk), static_cast<uint32_t>(src_rep)};
    // Where the result of (repeat r, block b) goes; b = 0 for the per-repeat reductions.
    const bool blocks = per_block(kind);
    const auto dst_off = [=](uint64_t r, uint32_t b) {
        return blocks ? (r * static_cast<uint64_t>(dst_rep) * 8 + b) * es
                      : r * static_cast<uint64_t>(dst_rep) * es;
    };
    Ranges sr, dr;
    for (uint64_t r = 0; r < plan->repeats; ++r) {
        for (uint32_t b = 0; b < (blocks ? 8u : 1u); ++b) {
            bool any = false;
            const uint32_t k0 = blocks ? b * epb : 0, k1 = blocks ? k0 + epb : plan->lanes;
            for (uint32_t k = k0; k < k1; ++k)
                if (plan->enabled(r, k)) {
                    any = true;
                    const uint64_t o = lane_offset(r, k, es, so.blk, so.rep);
                    sr.add(o, o + es);
                }
            if (any) dr.add(dst_off(r, b), dst_off(r, b) + es);
        }
    }
    sr.normalise();
    dr.normalise();
    auto in = new_instr(evg::hw::Pipe::V, name, site);
    in->dtype = t;
    in->repeats = static_cast<uint32_t>(std::min<uint64_t>(plan->repeats, UINT32_MAX));
    auto ps = level0_operand(c, src, sr, false, nullptr, OperandName(name, "src"), site);
    auto pd = element_aligned(c, dst, dr, es, nullptr, OperandName(name, "dst"), site);
    if (!ps || !pd) return;
    push_accesses(*in, *ps, sr, false);
    push_accesses(*in, *pd, dr, true);  // pd->off already includes the element skew
    const bool track = c.machine().config().checks.uninit;
    const L0Plan p = *plan;
    const Place s = *ps, d = *pd;
    in->exec = [=](evg::hw::Instr&) {
        // Results are computed from the sources of every repeat before any is written only within a
        // repeat; repeats run in order.
        std::vector<std::optional<float>> v;
        for (uint64_t r = 0; r < p.repeats; ++r) {
            const uint32_t groups = blocks ? 8u : 1u, width = blocks ? epb : p.lanes;
            std::vector<std::pair<std::optional<float>, bool>> res(groups);
            for (uint32_t b = 0; b < groups; ++b) {
                v.assign(width, std::nullopt);
                bool written = true;
                for (uint32_t i = 0; i < width; ++i) {
                    const uint32_t k = b * width + i;
                    if (!p.enabled(r, k)) continue;
                    const uint64_t a = s.off + lane_offset(r, k, es, so.blk, so.rep);
                    v[i] = load_float(s.mem->data() + a, t);
                    if (track && !s.mem->all_written(a, es)) written = false;
                }
                res[b] = {tree(kind, t, v), written};
            }
            for (uint32_t b = 0; b < groups; ++b) {
                if (!res[b].first) continue;
                const uint64_t a = d.off + dst_off(r, b);
                store_float(d.mem->data() + a, t, *res[b].first);
                if (track) d.mem->mark_written(a, es, res[b].second);
            }
        }
    };
    c.issue(std::move(in));
}

void vec_brcb(DType t, const LocalRef& dst, const LocalRef& src, int64_t repeat_time, uint32_t dst_blk,
              uint32_t dst_rep, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    if (!check_table_dtype(c, evg::hw::VectorOp::Brcb, t, site)) return;
    if (repeat_time <= 0) return;
    if (dst_blk == 0) dst_blk = 1;  // documented: a dstBlkStride of 0 is taken as 1
    const auto es = static_cast<uint32_t>(evg::hw::dtype_size(t));
    const auto reps = static_cast<uint64_t>(repeat_time);
    Ranges sr, dr;
    sr.add(0, reps * 8 * es);
    for (uint64_t r = 0; r < reps; ++r)
        for (uint32_t j = 0; j < 8; ++j) {
            const uint64_t o = (r * dst_rep + j * uint64_t{dst_blk}) * 32;
            dr.add(o, o + 32);
        }
    dr.normalise();
    auto in = new_instr(evg::hw::Pipe::V, "Brcb", site);
    in->dtype = t;
    in->repeats = static_cast<uint32_t>(reps);
    auto ps = level0_operand(c, src, sr, false, nullptr, OperandName("Brcb", "src"), site);
    auto pd = level0_operand(c, dst, dr, true, nullptr, OperandName("Brcb", "dst"), site);
    if (!ps || !pd) return;
    if (ps->mem == pd->mem) {
        for (const auto& [b, e] : dr.r)
            if (pd->off + b < ps->off + sr.extent() && ps->off < pd->off + e) {
                c.violate(ViolationKind::operand_overlap,
                          fmt::format("Brcb: src [{}, {}) and dst [{}, {}) overlap; Brcb does not support it",
                                      ps->off, ps->off + sr.extent(), pd->off + b, pd->off + e),
                          {c.site_location("Brcb", site)});
                return;
            }
    }
    push_accesses(*in, *ps, sr, false);
    push_accesses(*in, *pd, dr, true);
    const bool track = c.machine().config().checks.uninit;
    const Place s = *ps, d = *pd;
    in->exec = [=](evg::hw::Instr&) {
        for (uint64_t r = 0; r < reps; ++r)
            for (uint32_t j = 0; j < 8; ++j) {
                const uint64_t sa = s.off + (r * 8 + j) * es;
                const uint64_t da = d.off + (r * dst_rep + j * uint64_t{dst_blk}) * 32;
                for (uint32_t i = 0; i < 32; i += es)
                    std::memcpy(d.mem->data() + da + i, s.mem->data() + sa, es);
                if (track) d.mem->mark_written(da, 32, s.mem->all_written(sa, es));
            }
    };
    c.issue(std::move(in));
}

namespace {
bool compare(CMPMODE m, float a, float b) {
    switch (m) {
        case CMPMODE::LT:
            return a < b;
        case CMPMODE::GT:
            return a > b;
        case CMPMODE::EQ:
            return a == b;
        case CMPMODE::LE:
            return a <= b;
        case CMPMODE::GE:
            return a >= b;
        case CMPMODE::NE:
            return a != b;
    }
    return false;
}
}  // namespace

void vec_compare(DType t, CMPMODE mode, const LocalRef& dst, const LocalRef& src0, const LocalRef* src1,
                 double scalar, uint64_t count, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const char* name = src1 ? "Compare" : "CompareScalar";
    if (!check_table_dtype(c, evg::hw::VectorOp::CompareScalar, t, site)) return;
    const auto es = static_cast<uint64_t>(evg::hw::dtype_size(t));
    const uint64_t n = count * es / 256 * 256 / es;  // whole repeats only
    if (n != count)
        bad_param(
            c, name,
            fmt::format("count {} is not a whole number of 256-byte repeats; the last {} elements are not "
                        "compared",
                        count, count - n),
            site, evg::hw::Severity::warning);
    count_form_leaves_mask(c);
    if (n == 0) return;
    auto in = new_instr(evg::hw::Pipe::V, name, site);
    in->dtype = t;
    in->repeats = static_cast<uint32_t>(n * es / 256);
    auto pa = local_operand(c, src0, n * es, OperandName(name, "src0"), site);
    std::optional<Place> pb;
    if (src1) pb = local_operand(c, *src1, n * es, OperandName(name, "src1"), site);
    auto pd = local_operand(c, dst, n / 8, OperandName(name, "dst"), site);
    if (!pa || !pd || (src1 && !pb)) return;
    in->accesses.push_back({pa->mem, pa->off, pa->off + n * es, false, false});
    if (pb) in->accesses.push_back({pb->mem, pb->off, pb->off + n * es, false, false});
    in->accesses.push_back({pd->mem, pd->off, pd->off + n / 8, true, false});
    const bool track = c.machine().config().checks.uninit;
    const Place a = *pa, d = *pd;
    const std::optional<Place> b = pb;
    const auto s = static_cast<float>(scalar);
    in->exec = [=](evg::hw::Instr&) {
        for (uint64_t byte = 0; byte < n / 8; ++byte) {
            uint8_t bits = 0;
            for (uint32_t i = 0; i < 8; ++i) {
                const uint64_t e = byte * 8 + i;
                const float x = load_float(a.mem->data() + a.off + e * es, t);
                const float y = b ? load_float(b->mem->data() + b->off + e * es, t) : s;
                if (compare(mode, x, y)) bits = static_cast<uint8_t>(bits | (1u << i));
            }
            d.mem->data()[d.off + byte] = bits;
            if (track) {
                bool w = a.mem->all_written(a.off + byte * 8 * es, 8 * es);
                if (b) w = w && b->mem->all_written(b->off + byte * 8 * es, 8 * es);
                d.mem->mark_written(d.off + byte, 1, w);
            }
        }
    };
    c.issue(std::move(in));
}

void vec_select(DType t, const LocalRef& dst, const LocalRef& mask, const LocalRef& src0,
                const LocalRef* src1, double scalar, uint64_t count, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    if (!check_table_dtype(c, evg::hw::VectorOp::Select, t, site)) return;
    count_form_leaves_mask(c);
    if (count == 0) return;
    const auto es = static_cast<uint64_t>(evg::hw::dtype_size(t));
    const uint64_t bytes = count * es, mbytes = (count + 7) / 8;
    auto in = new_instr(evg::hw::Pipe::V, "Select", site);
    in->dtype = t;
    in->repeats = static_cast<uint32_t>((bytes + 255) / 256);
    auto pm = local_operand(c, mask, mbytes, OperandName("Select", "selMask"), site);
    auto pa = local_operand(c, src0, bytes, OperandName("Select", "src0"), site);
    std::optional<Place> pb;
    if (src1) pb = local_operand(c, *src1, bytes, OperandName("Select", "src1"), site);
    auto pd = local_operand(c, dst, bytes, OperandName("Select", "dst"), site);
    if (!pm || !pa || !pd || (src1 && !pb)) return;
    in->accesses.push_back({pm->mem, pm->off, pm->off + mbytes, false, false});
    in->accesses.push_back({pa->mem, pa->off, pa->off + bytes, false, false});
    if (pb) in->accesses.push_back({pb->mem, pb->off, pb->off + bytes, false, false});
    in->accesses.push_back({pd->mem, pd->off, pd->off + bytes, true, false});
    const bool track = c.machine().config().checks.uninit;
    const Place m = *pm, a = *pa, d = *pd;
    const std::optional<Place> b = pb;
    const auto s = static_cast<float>(scalar);
    in->exec = [=](evg::hw::Instr&) {
        for (uint64_t i = 0; i < count; ++i) {
            const bool bit = ((m.mem->data()[m.off + i / 8] >> (i % 8)) & 1) != 0;
            const float x = bit ? load_float(a.mem->data() + a.off + i * es, t)
                                : (b ? load_float(b->mem->data() + b->off + i * es, t) : s);
            bool w = true;
            if (track) {
                w = m.mem->all_written(m.off + i / 8, 1) &&
                    (bit ? a.mem->all_written(a.off + i * es, es)
                         : !b || b->mem->all_written(b->off + i * es, es));
            }
            store_float(d.mem->data() + d.off + i * es, t, x);
            if (track) d.mem->mark_written(d.off + i * es, es, w);
        }
    };
    c.issue(std::move(in));
}

}  // namespace AscendC::detail
