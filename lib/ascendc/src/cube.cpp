// Cube-side instructions: LoadData (MTE1), Mmad (M), Fixpipe (FIX). Matrices are plain row-major in every
// local memory (no fractal nZ/zZ layouts, see cube.hpp). Each instruction declares the exact byte ranges it
// reads and writes, so the race checker sees them, and propagates the written-shadow element by element.
#include "ascendc/cube.hpp"

#include <fmt/format.h>

#include <cstring>
#include <type_traits>
#include <vector>

#include "evg/hw/machine.hpp"
#include "evg/hw/name_cache.hpp"
#include "evg/hw/numeric/convert.hpp"
#include "operands.hpp"

namespace AscendC::detail {

using evg::hw::Core;
using evg::hw::CoreType;
using evg::hw::DType;
using evg::hw::MemKind;
using evg::hw::Memory;
using evg::hw::Pipe;
using evg::hw::ViolationKind;

namespace {

bool fail(Core& c, ViolationKind k, const std::string& op, const std::string& msg, Site site) {
    c.violate(k, op + ": " + msg, {c.site_location(op, site)});
    return false;
}

bool require_aic(Core& c, const std::string& op, Site site) {
    if (c.type() == CoreType::AIC) return true;
    return fail(c, ViolationKind::bad_param, op, fmt::format("runs on the AIC only; {} is an AIV", c.name()),
                site);
}

bool require_mem(Core& c, const LocalRef& t, std::initializer_list<MemKind> ok, const std::string& op,
                 const char* role, Site site) {
    for (MemKind k : ok)
        if (t.mem == k) return true;
    std::string names;
    for (MemKind k : ok) names += (names.empty() ? "" : " or ") + std::string(evg::hw::mem_name(k));
    return fail(c, ViolationKind::bad_param, op,
                fmt::format("{} must be in {}, not in {}", role, names, evg::hw::mem_name(t.mem)), site);
}

bool all_written(const Memory* m, uint64_t off, uint64_t bytes) {
    return m->first_unwritten(off, bytes) < 0;
}

// Fixpipe conversions (no quantisation / dequantisation modelled): float -> float/half/bf16, int32 -> int32.
bool fixpipe_legal(DType src, DType dst) {
    if (src == DType::f32) return dst == DType::f32 || dst == DType::f16 || dst == DType::bf16;
    if (src == DType::i32) return dst == DType::i32;
    return false;
}

// Converts one L0C element to the destination type, round to nearest even.
void convert_out(DType st, const uint8_t* s, DType dt, uint8_t* d) {
    if (st == dt) {
        std::memcpy(d, s, static_cast<size_t>(evg::hw::dtype_size(dt)));
        return;
    }
    store_float(d, dt, load_float(s, st));
}

struct FixPlan {
    Place src, dst;
    DType st, dt;
    uint16_t m, n;
    uint64_t src_pitch, dst_pitch;  // bytes
};

// Builds the per-row accesses and the exec closure shared by both Fixpipe destinations.
void issue_fixpipe(Core& c, const std::string& op, Site site, const FixPlan& f, evg::hw::AtomicOp atomic) {
    auto in = new_instr(Pipe::FIX, op, site);
    uint32_t ss = static_cast<uint32_t>(evg::hw::dtype_size(f.st)),
             ds = static_cast<uint32_t>(evg::hw::dtype_size(f.dt));
    bool is_atomic = atomic != evg::hw::AtomicOp::none;
    for (uint32_t i = 0; i < f.m; ++i) {
        uint64_t s = f.src.off + i * f.src_pitch, d = f.dst.off + i * f.dst_pitch;
        in->accesses.push_back({f.src.mem, s, s + uint64_t(f.n) * ss, false, false});
        in->accesses.push_back({f.dst.mem, d, d + uint64_t(f.n) * ds, true, is_atomic});
    }
    bool uninit = c.machine().config().checks.uninit;
    in->exec = [f, ss, ds, atomic, is_atomic, uninit](evg::hw::Instr& self) {
        bool to_gm = f.dst.mem->kind() == MemKind::GM;
        bool reported = false;
        for (uint32_t i = 0; i < f.m; ++i) {
            for (uint32_t j = 0; j < f.n; ++j) {
                uint64_t s = f.src.off + i * f.src_pitch + uint64_t(j) * ss;
                uint64_t d = f.dst.off + i * f.dst_pitch + uint64_t(j) * ds;
                bool sw = all_written(f.src.mem, s, ss);
                bool dw = all_written(f.dst.mem, d, ds);
                if (to_gm && uninit && !reported && (!sw || (is_atomic && !dw))) {
                    reported = true;
                    evg::hw::Access a{sw ? f.dst.mem : f.src.mem, sw ? d : s, (sw ? d : s) + 1, sw,
                                      is_atomic};
                    self.core->violate(
                        ViolationKind::uninit_to_gm,
                        !sw ? fmt::format("{} stores never-written L0C bytes to GM: element ({}, {}) at byte "
                                          "{} of {} "
                                          "was never written",
                                          self.op, i, j, s, f.src.mem->name())
                            : fmt::format(
                                  "{} accumulates atomically into never-written GM byte {} of {}: initialise "
                                  "the output before the kernel",
                                  self.op, d, f.dst.mem->name()),
                        {self.core->location(self, &a)});
                }
                uint8_t out[4];
                convert_out(f.st, f.src.mem->data() + s, f.dt, out);
                if (is_atomic)
                    atomic_element(f.dst.mem->data() + d, out, f.dt, atomic);
                else
                    std::memcpy(f.dst.mem->data() + d, out, ds);
                f.dst.mem->mark_written(d, ds, sw && (!is_atomic || dw));
            }
        }
    };
    c.issue(std::move(in));
}

// Common checks of both Fixpipe overloads; returns the L0C place and the pitches, or nothing.
std::optional<Place> fixpipe_src(Core& c, const std::string& op, DType dt, const LocalRef& src, DType st,
                                 const FixpipeParams& p, Site site) {
    if (!require_aic(c, op, site)) return std::nullopt;
    if (!require_mem(c, src, {MemKind::L0C}, op, "the source (CO1)", site)) return std::nullopt;
    if (!fixpipe_legal(st, dt)) {
        fail(c, ViolationKind::illegal_dtype, op,
             fmt::format(
                 "converting L0C {} to {} is not supported (legal: float -> float/half/bfloat16, "
                 "int32 -> int32; int32 -> half needs a dequantisation, which the model does not provide)",
                 evg::hw::dtype_name(st), evg::hw::dtype_name(dt)),
             site);
        return std::nullopt;
    }
    if (p.srcStride < p.n || p.dstStride < p.n) {
        fail(c, ViolationKind::bad_param, op,
             fmt::format("srcStride {} and dstStride {} must be at least n = {}", p.srcStride, p.dstStride,
                         p.n),
             site);
        return std::nullopt;
    }
    if (p.m == 0 || p.n == 0) return std::nullopt;
    uint64_t ss = static_cast<uint64_t>(evg::hw::dtype_size(st));
    return local_operand(c, src, (uint64_t(p.m) - 1) * p.srcStride * ss + p.n * ss, OperandName(op, "src"),
                         site);
}

}  // namespace

void load_data(const LocalRef& dst, const LocalRef& src, uint64_t bytes, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const std::string& op = evg::hw::cached_name(
        (uint64_t{static_cast<uint8_t>(src.mem)} << 8) | static_cast<uint8_t>(dst.mem), [&] {
            return fmt::format("LoadData {}->{}", evg::hw::mem_name(src.mem), evg::hw::mem_name(dst.mem));
        });
    if (!require_aic(c, op, site) || !require_mem(c, src, {MemKind::L1}, op, "the source (A1/B1)", site) ||
        !require_mem(c, dst, {MemKind::L0A, MemKind::L0B}, op, "the destination (A2/B2)", site) || bytes == 0)
        return;
    auto s = local_operand(c, src, bytes, OperandName(op, "src"), site);
    auto d = local_operand(c, dst, bytes, OperandName(op, "dst"), site);
    if (!s || !d) return;
    auto in = new_instr(Pipe::MTE1, op, site);
    in->accesses.push_back({s->mem, s->off, s->off + bytes, false, false});
    in->accesses.push_back({d->mem, d->off, d->off + bytes, true, false});
    Place ps = *s, pd = *d;
    in->exec = [ps, pd, bytes](evg::hw::Instr& self) {
        copy_bytes(self, pd.mem, pd.off, ps.mem, ps.off, bytes, true);
    };
    c.issue(std::move(in));
}

void mmad(const LocalRef& cref, DType ct, const LocalRef& a, const LocalRef& b, DType at, DType bt,
          const MmadParams& p, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    std::string op = "Mmad";
    if (!require_aic(c, op, site) || !require_mem(c, cref, {MemKind::L0C}, op, "C (CO1)", site) ||
        !require_mem(c, a, {MemKind::L0A}, op, "A (A2)", site) ||
        !require_mem(c, b, {MemKind::L0B}, op, "B (B2)", site))
        return;
    // bf16 -> float is accepted on both chips: the cube unit of AtlasA2 does bf16 (docs/hardware-model.md
    // §4.2, §10 "fp16/bf16 16x16x16 MAC per cycle"); bf16 is only missing from AtlasA2's *vector* unit.
    bool legal =
        at == bt && ((at == DType::f16 && ct == DType::f32) || (at == DType::bf16 && ct == DType::f32) ||
                     (at == DType::i8 && ct == DType::i32) || (at == DType::f32 && ct == DType::f32));
    if (!legal) {
        fail(c, ViolationKind::illegal_dtype, op,
             fmt::format("A {} x B {} -> C {} is not a cube combination (legal: half/bfloat16 -> float, int8 "
                         "-> int32, "
                         "float -> float, with A and B of the same type)",
                         evg::hw::dtype_name(at), evg::hw::dtype_name(bt), evg::hw::dtype_name(ct)),
             site);
        return;
    }
    if (p.m == 0 || p.n == 0 || p.k == 0) return;  // nothing to compute: no instruction
    const uint32_t es = static_cast<uint32_t>(evg::hw::dtype_size(at)), cs = 4;
    const uint64_t m = p.m, n = p.n, k = p.k;
    auto pa = local_operand(c, a, m * k * es, OperandName(op, "A"), site);
    auto pb = local_operand(c, b, k * n * es, OperandName(op, "B"), site);
    auto pc = local_operand(c, cref, m * n * cs, OperandName(op, "C"), site);
    if (!pa || !pb || !pc) return;
    auto in = new_instr(Pipe::M, op, site);
    in->dtype = at;
    in->accesses.push_back({pa->mem, pa->off, pa->off + m * k * es, false, false});
    in->accesses.push_back({pb->mem, pb->off, pb->off + k * n * es, false, false});
    if (!p.cmatrixInitVal) in->accesses.push_back({pc->mem, pc->off, pc->off + m * n * cs, false, false});
    in->accesses.push_back({pc->mem, pc->off, pc->off + m * n * cs, true, false});
    Place A = *pa, B = *pb, C = *pc;
    bool init = p.cmatrixInitVal;
    in->exec = [A, B, C, at, es, m, n, k, init](evg::hw::Instr&) {
        const uint8_t* ad = A.mem->data() + A.off;
        const uint8_t* bd = B.mem->data() + B.off;
        uint8_t* cd = C.mem->data() + C.off;
        // Written-shadow: C(i, j) is written iff row i of A, column j of B and (when accumulating) C(i, j)
        // were.
        // When A, B and (accumulating) C are written whole, every output is: one range check each instead of
        // one per element, and one mark of C's range at the end.
        const bool all_ok = all_written(A.mem, A.off, m * k * es) && all_written(B.mem, B.off, k * n * es) &&
                            (init || all_written(C.mem, C.off, m * n * cs));
        std::vector<uint8_t> row_ok(m, 1), col_ok(n, 1);
        if (!all_ok) {
            for (uint64_t i = 0; i < m; ++i) row_ok[i] = all_written(A.mem, A.off + i * k * es, k * es);
            for (uint64_t kk = 0; kk < k; ++kk)
                for (uint64_t j = 0; j < n; ++j)
                    if (!all_written(B.mem, B.off + (kk * n + j) * es, es)) col_ok[j] = 0;
        }
        // The float path reads each element of A and B m or n times: decode them once (B transposed, so the
        // k-loop runs over contiguous floats). Same products, same ascending-k sums: the same bits.
        std::vector<float> af, bt;
        if (at != DType::i8) {
            af.resize(m * k);
            bt.resize(k * n);
            for (uint64_t x = 0; x < m * k; ++x) af[x] = load_float(ad + x * es, at);
            for (uint64_t kk = 0; kk < k; ++kk)
                for (uint64_t j = 0; j < n; ++j) bt[j * k + kk] = load_float(bd + (kk * n + j) * es, at);
        }
        for (uint64_t i = 0; i < m; ++i) {
            for (uint64_t j = 0; j < n; ++j) {
                uint8_t* out = cd + (i * n + j) * cs;
                bool w = all_ok || (row_ok[i] && col_ok[j] &&
                                    (init || all_written(C.mem, C.off + (i * n + j) * cs, cs)));
                // One accumulator per output, starting from 0 (cmatrixInitVal) or from C, summing k
                // ascending.
                if (at == DType::i8) {
                    uint32_t acc = 0;  // int32 with wrap-around
                    if (!init) std::memcpy(&acc, out, 4);
                    for (uint64_t kk = 0; kk < k; ++kk) {
                        auto x = static_cast<int8_t>(ad[i * k + kk]), y = static_cast<int8_t>(bd[kk * n + j]);
                        acc += static_cast<uint32_t>(int32_t{x} * int32_t{y});
                    }
                    std::memcpy(out, &acc, 4);
                } else {
                    // Float accumulator; each product is rounded to float (exact for half/bf16 inputs), then
                    // added.
                    float acc = 0.0f;
                    if (!init) std::memcpy(&acc, out, 4);
                    const float* arow = af.data() + i * k;
                    const float* bcol = bt.data() + j * k;
                    for (uint64_t kk = 0; kk < k; ++kk) {
                        const float prod = arow[kk] * bcol[kk];
                        acc = acc + prod;
                    }
                    std::memcpy(out, &acc, 4);
                }
                if (!all_ok) C.mem->mark_written(C.off + (i * n + j) * cs, cs, w);
            }
        }
        if (all_ok) C.mem->mark_written(C.off, m * n * cs);
    };
    c.issue(std::move(in));
}

void fixpipe_gm(void* dst, DType dt, const LocalRef& src, DType st, const FixpipeParams& p, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    std::string op = "Fixpipe L0C->GM";
    auto s = fixpipe_src(c, op, dt, src, st, p, site);
    if (!s) return;
    uint64_t ds = static_cast<uint64_t>(evg::hw::dtype_size(dt));
    auto d = gm_operand(c, dst, (uint64_t(p.m) - 1) * p.dstStride * ds + p.n * ds, static_cast<uint32_t>(ds),
                        OperandName(op, "dst"), site);
    if (!d) return;
    FixPlan f{*s,
              *d,
              st,
              dt,
              p.m,
              p.n,
              uint64_t(p.srcStride) * static_cast<uint64_t>(evg::hw::dtype_size(st)),
              uint64_t(p.dstStride) * ds};
    issue_fixpipe(c, op, site, f, c.atomic_op());
}

void fixpipe_ub(const LocalRef& dst, DType dt, const LocalRef& src, DType st, const FixpipeParams& p,
                uint8_t subBlock, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    std::string op = "Fixpipe L0C->UB";
    if (c.arch().id != evg::hw::ArchId::Ascend950) {
        fail(c, ViolationKind::bad_param, op,
             fmt::format(
                 "the L0C->UB data path does not exist on {} (Ascend950 only, docs/hardware-model.md §1); "
                 "go through GM (Fixpipe to a GM workspace, then DataCopy on the AIV)",
                 c.arch().name),
             site);
        return;
    }
    if (!require_mem(c, dst, {MemKind::UB}, op, "the destination (VECCALC/VECIN/VECOUT)", site)) return;
    auto s = fixpipe_src(c, op, dt, src, st, p, site);
    if (!s) return;
    Core* aiv = c.machine().aiv_of(c.block(), subBlock);
    Memory* ub = aiv ? aiv->local(MemKind::UB) : nullptr;
    if (!ub) {
        fail(c, ViolationKind::bad_param, op,
             fmt::format("block {} has no AIV {} (kernel type must be mix with that many AIVs)", c.block(),
                         int{subBlock}),
             site);
        return;
    }
    uint64_t ds = static_cast<uint64_t>(evg::hw::dtype_size(dt));
    uint64_t bytes = (uint64_t(p.m) - 1) * p.dstStride * ds + p.n * ds;
    if (!ub->contains(dst.addr, bytes)) {
        fail(c, ViolationKind::out_of_bounds, op,
             fmt::format("dst touches UB bytes [{}, {}) of {}, beyond its {} B", dst.addr, dst.addr + bytes,
                         ub->name(), ub->size()),
             site);
        return;
    }
    uint32_t align = evg::hw::mem_alignment(c.arch(), MemKind::UB);
    if (c.machine().config().checks.memory && dst.addr % align != 0)
        fail(c, ViolationKind::misaligned, op,
             fmt::format("dst address {} in {} is not {}-byte aligned", dst.addr, ub->name(), align), site);
    ub->note_touch(dst.addr, dst.addr + bytes);
    FixPlan f{*s,
              Place{ub, dst.addr},
              st,
              dt,
              p.m,
              p.n,
              uint64_t(p.srcStride) * static_cast<uint64_t>(evg::hw::dtype_size(st)),
              uint64_t(p.dstStride) * ds};
    issue_fixpipe(c, op, site, f, evg::hw::AtomicOp::none);
}

}  // namespace AscendC::detail
