// L1 -> L0A/L0B loads (MTE1), Mmad (M) and the cube mode settings, on the hardware's fractal layouts
// (docs/hardware-model.md §16). Each instruction declares the byte ranges it reads and writes and carries the
// written-shadow element by element.
#include "ascendc/cube.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include "cube_common.hpp"
#include "evg/hw/name_cache.hpp"

namespace AscendC::detail {

using evg::hw::Core;
using evg::hw::DType;
using evg::hw::MemKind;
using evg::hw::Memory;
using evg::hw::Pipe;
using evg::hw::ViolationKind;
using namespace cube;

namespace {

struct Move {  // one element (or fractal) move
    uint64_t src, dst, len;
};

void issue_moves(Core& c, const std::string& op, Site site, Memory* sm, Memory* dm,
                 std::vector<evg::hw::Access> acc, std::vector<Move> moves) {
    auto in = new_instr(Pipe::MTE1, op, site);
    in->accesses = std::move(acc);
    in->exec = [sm, dm, moves = std::move(moves)](evg::hw::Instr& self) {
        for (const Move& mv : moves) copy_bytes(self, dm, mv.dst, sm, mv.src, mv.len, true);
    };
    c.issue(std::move(in));
}

}  // namespace

void load_2d(const LocalRef& dst, const LocalRef& src, uint32_t elem, const Load2DSpec& p, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const std::string& op = evg::hw::cached_name(
        (uint64_t{p.v2} << 20) | (uint64_t{p.transpose} << 16) |
            (uint64_t{static_cast<uint8_t>(src.mem)} << 8) | static_cast<uint8_t>(dst.mem),
        [&] {
            return fmt::format("LoadData{}{} {}->{}", p.v2 ? "2Dv2" : "2D", p.transpose ? " transpose" : "",
                               evg::hw::mem_name(src.mem), evg::hw::mem_name(dst.mem));
        });
    if (!require_aic(c, op, site) || !require_mem(c, src, {MemKind::L1}, op, "the source (A1/B1)", site) ||
        !require_mem(c, dst, {MemKind::L0A, MemKind::L0B}, op, "the destination (A2/B2)", site))
        return;
    const uint64_t c0 = 32 / elem;
    std::vector<evg::hw::Access> acc;
    std::vector<Move> moves;
    uint64_t src_end = 0, dst_end = 0;
    auto src_range = [&](uint64_t b, uint64_t e) {
        acc.push_back({nullptr, b, e, false, false});
        src_end = std::max(src_end, e);
    };
    auto dst_range = [&](uint64_t b, uint64_t e) {
        acc.push_back({nullptr, b, e, true, false});
        dst_end = std::max(dst_end, e);
    };
    if (!p.v2) {
        if (p.repeat == 0) return;
        if (p.transpose && elem != 2)
            unmodelled("LoadData(LoadData2DParams, ifTranspose) on 8- or 32-bit data", site);
        for (uint64_t i = 0; i < p.repeat; ++i) {
            uint64_t s = (p.start + i * p.src_stride) * kFractal, d = i * (1 + p.dst_gap) * kFractal;
            src_range(s, s + kFractal);
            dst_range(d, d + kFractal);
            if (!p.transpose) {
                moves.push_back({s, d, kFractal});
            } else {
                for (uint64_t r = 0; r < 16; ++r)
                    for (uint64_t q = 0; q < 16; ++q)
                        moves.push_back({s + (r * 16 + q) * 2, d + (q * 16 + r) * 2, 2});
            }
        }
    } else {
        if (p.m_step == 0 || p.k_step == 0) return;
        if (p.transpose && (c0 * p.k_step) % 16 != 0)
            return void(fail(c, ViolationKind::bad_param, op,
                             fmt::format("a transposing load of {}-byte data needs an even kStep (got {})",
                                         elem, p.k_step),
                             site));
        if (p.transpose && (16 * p.m_step) % c0 != 0)
            return void(fail(c, ViolationKind::bad_param, op,
                             fmt::format("a transposing load of {}-byte data needs an even mStep (got {})",
                                         elem, p.m_step),
                             site));
        for (uint64_t ki = 0; ki < p.k_step; ++ki) {
            uint64_t s = ((p.k_start + ki) * p.src_stride + p.m_start) * kFractal;
            src_range(s, s + p.m_step * kFractal);
        }
        if (!p.transpose) {
            for (uint64_t ki = 0; ki < p.k_step; ++ki) {
                uint64_t s = ((p.k_start + ki) * p.src_stride + p.m_start) * kFractal,
                         d = ki * p.dst_stride * kFractal;
                dst_range(d, d + p.m_step * kFractal);
                moves.push_back({s, d, p.m_step * kFractal});
            }
        } else {
            const uint64_t rows = 16 * p.m_step, cols = c0 * p.k_step;
            for (uint64_t rb = 0; rb < rows / c0; ++rb) {
                uint64_t d = rb * p.dst_stride * kFractal;
                dst_range(d, d + cols / 16 * kFractal);
            }
            moves.reserve(rows * cols);
            for (uint64_t r = 0; r < rows; ++r)
                for (uint64_t q = 0; q < cols; ++q) {
                    uint64_t s = ((p.k_start + q / c0) * p.src_stride + p.m_start + r / 16) * kFractal +
                                 ((r % 16) * c0 + q % c0) * elem;
                    uint64_t d =
                        ((r / c0) * p.dst_stride + q / 16) * kFractal + ((q % 16) * c0 + r % c0) * elem;
                    moves.push_back({s, d, elem});
                }
        }
    }
    auto ps = local_operand(c, src, src_end, OperandName(op, "src"), site);
    auto pd = local_operand(c, dst, dst_end, OperandName(op, "dst"), site);
    if (!ps || !pd) return;
    for (auto& a : acc) {
        a.mem = a.write ? pd->mem : ps->mem;
        a.begin += a.write ? pd->off : ps->off;
        a.end += a.write ? pd->off : ps->off;
    }
    for (auto& mv : moves) {
        mv.src += ps->off;
        mv.dst += pd->off;
    }
    issue_moves(c, op, site, ps->mem, pd->mem, std::move(acc), std::move(moves));
}

void set_hf32_mode(bool on, Site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    c.cube().hf32 = on;
}

void set_mm_layout_transform(bool n_first, Site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    c.cube().n_first = n_first;
}

namespace {

// unitFlag before an Mmad (2, 3) or a Fixpipe (2, 3) over the L0C bytes [off, off + bytes): checks the bits
// and waits for the hand-over from the other pipe. Returns false when the instruction would wait forever.
bool unit_flag_before(Core& c, bool is_mmad, uint8_t uf, uint64_t off, uint64_t bytes, const std::string& op,
                      Site site) {
    if (uf == 0) return true;
    if (uf == 1)
        return fail(c, ViolationKind::bad_param, op,
                    "unitFlag 1 is reserved (0 off, 2 wait, 3 wait and flip)", site);
    auto& st = c.cube();
    const uint64_t blocks = uint64_t{c.arch().l0c_size} / kUnitBlock;
    if (st.unit_bits.size() != blocks) st.unit_bits.assign(blocks, 0);
    const uint64_t b0 = off / kUnitBlock,
                   b1 = std::min<uint64_t>((off + bytes + kUnitBlock - 1) / kUnitBlock, blocks);
    const uint8_t want = is_mmad ? 0 : 1;
    for (uint64_t b = b0; b < b1; ++b)
        if (st.unit_bits[b] != want)
            return fail(
                c, ViolationKind::deadlock, op,
                fmt::format("unitFlag {}: L0C block {} (bytes [{}, {})) has unit bit {}, and {} waits for {} "
                            "that nothing issued before it provides ({})",
                            uf, b, b * kUnitBlock, (b + 1) * kUnitBlock, st.unit_bits[b], op, want,
                            is_mmad ? "a Fixpipe with unitFlag 3 must read the block first"
                                    : "an Mmad with unitFlag 3 must fill the block first"),
                site);
    uint32_t& pending = is_mmad ? st.fix_to_m : st.m_to_fix;
    if (pending > 0) {
        c.unit_flag(false, is_mmad ? evg::hw::HardEvent::FIX_M : evg::hw::HardEvent::M_FIX, site);
        --pending;
    }
    return true;
}

void unit_flag_after(Core& c, bool is_mmad, uint8_t uf, uint64_t off, uint64_t bytes, Site site) {
    if (uf != 3) return;
    auto& st = c.cube();
    const uint64_t blocks = st.unit_bits.size();
    const uint64_t b0 = off / kUnitBlock,
                   b1 = std::min<uint64_t>((off + bytes + kUnitBlock - 1) / kUnitBlock, blocks);
    for (uint64_t b = b0; b < b1; ++b) st.unit_bits[b] = is_mmad ? 1 : 0;
    uint32_t& pending = is_mmad ? st.m_to_fix : st.fix_to_m;
    if (pending == 0) {
        c.unit_flag(true, is_mmad ? evg::hw::HardEvent::M_FIX : evg::hw::HardEvent::FIX_M, site);
        ++pending;
    }
}

}  // namespace

bool fixpipe_unit_before(Core& c, uint8_t uf, uint64_t off, uint64_t bytes, const std::string& op,
                         Site site) {
    return unit_flag_before(c, false, uf, off, bytes, op, site);
}
void fixpipe_unit_after(Core& c, uint8_t uf, uint64_t off, uint64_t bytes, Site site) {
    unit_flag_after(c, false, uf, off, bytes, site);
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
                         "-> int32, float -> float, with A and B of the same type)",
                         evg::hw::dtype_name(at), evg::hw::dtype_name(bt), evg::hw::dtype_name(ct)),
             site);
        return;
    }
    if (p.isBias) unmodelled("Mmad(MmadParams::isBias)", site);
    if (p.cmatrixSource) unmodelled("Mmad(MmadParams::cmatrixSource)", site);
    if (p.enSsparse || p.enWinogradA || p.enWinogradB) unmodelled("Mmad(sparse/Winograd)", site);
    if (p.m == 1 && !p.disableGemv) unmodelled("Mmad GEMV mode (m == 1 without disableGemv)", site);
    if (at == DType::f32 && c.cube().hf32) unmodelled("Mmad under SetHF32Mode(true)", site);
    if (p.m == 0 || p.n == 0 || p.k == 0) return;  // nothing to compute: no instruction
    const uint64_t es = static_cast<uint64_t>(evg::hw::dtype_size(at)), cs = 4, c0 = 32 / es;
    const uint64_t m = p.m, n = p.n, k = p.k;
    const uint64_t mp = round_up(m, 16), np = round_up(n, 16), kp = round_up(k, c0);
    const bool a_zz = c.arch().id == evg::hw::ArchId::AtlasA2;  // L0A: zZ on AtlasA2, zN on Ascend950
    auto pa = local_operand(c, a, mp * kp * es, OperandName(op, "A"), site);
    auto pb = local_operand(c, b, kp * np * es, OperandName(op, "B"), site);
    auto pc = local_operand(c, cref, mp * np * cs, OperandName(op, "C"), site);
    if (!pa || !pb || !pc) return;
    if (!unit_flag_before(c, true, p.unitFlag, pc->off, mp * np * cs, op, site)) return;
    auto in = new_instr(Pipe::M, op, site);
    in->dtype = at;
    in->accesses.push_back({pa->mem, pa->off, pa->off + mp * kp * es, false, false});
    in->accesses.push_back({pb->mem, pb->off, pb->off + kp * np * es, false, false});
    if (!p.cmatrixInitVal) in->accesses.push_back({pc->mem, pc->off, pc->off + mp * np * cs, false, false});
    in->accesses.push_back({pc->mem, pc->off, pc->off + mp * np * cs, true, false});
    Place A = *pa, B = *pb, C = *pc;
    bool init = p.cmatrixInitVal;
    in->exec = [A, B, C, at, es, c0, mp, np, k, kp, init, a_zz](evg::hw::Instr&) {
        auto a_off = [&](uint64_t i, uint64_t kk) {
            return a_zz ? (i / 16) * kp * 16 + (kk / c0) * 16 * c0 + (i % 16) * c0 + kk % c0
                        : (kk / c0) * mp * c0 + i * c0 + kk % c0;
        };
        auto b_off = [&](uint64_t kk, uint64_t j) { return (kk / c0) * np * c0 + j * c0 + kk % c0; };
        auto c_off = [&](uint64_t i, uint64_t j) { return (j / 16) * mp * 16 + i * 16 + j % 16; };
        const uint8_t* ad = A.mem->data() + A.off;
        const uint8_t* bd = B.mem->data() + B.off;
        uint8_t* cd = C.mem->data() + C.off;
        // Both operands keep K in groups of c0 contiguous elements (32 bytes): row i of A holds its group g
        // at a_off(i, g * c0), column j of B at b_off(g * c0, j). A group's k elements are read as a run.
        const uint64_t groups = (k + c0 - 1) / c0;
        const auto group_len = [&](uint64_t g) { return std::min(c0, k - g * c0); };
        // Written-shadow: C(i, j) is written iff the k elements of row i of A, of column j of B and (when
        // accumulating) C(i, j) were.
        const bool all_ok = all_written(A.mem, A.off, mp * kp * es) &&
                            all_written(B.mem, B.off, kp * np * es) &&
                            (init || all_written(C.mem, C.off, mp * np * cs));
        std::vector<uint8_t> row_ok(mp, 1), col_ok(np, 1);
        if (!all_ok) {
            for (uint64_t i = 0; i < mp; ++i)
                for (uint64_t g = 0; g < groups && row_ok[i]; ++g)
                    row_ok[i] = all_written(A.mem, A.off + a_off(i, g * c0) * es, group_len(g) * es);
            for (uint64_t j = 0; j < np; ++j)
                for (uint64_t g = 0; g < groups && col_ok[j]; ++g)
                    col_ok[j] = all_written(B.mem, B.off + b_off(g * c0, j) * es, group_len(g) * es);
        }
        // Decoded operands: A row-major (mp x k), B k-major (k x np). A row of C is computed whole, each
        // element with its own accumulator and its products added in ascending k: the same sums as one
        // element at a time, in lanes the compiler puts side by side. C keeps its rows in 16-column fractals
        // ((j / 16) * mp * 16 + i * 16 + j % 16): a row goes in and out 16 elements at a time.
        std::vector<float> af, bf, facc;
        std::vector<int32_t> ai, bi;
        std::vector<uint32_t> iacc;
        const auto decode = [&](auto* a_out, auto* b_out, auto element) {
            for (uint64_t i = 0; i < mp; ++i)
                for (uint64_t g = 0; g < groups; ++g) {
                    const uint8_t* src = ad + a_off(i, g * c0) * es;
                    for (uint64_t t = 0, len = group_len(g); t < len; ++t)
                        a_out[i * k + g * c0 + t] = element(src + t * es);
                }
            for (uint64_t g = 0; g < groups; ++g)
                for (uint64_t t = 0, len = group_len(g); t < len; ++t) {
                    const uint8_t* src = bd + b_off(g * c0, 0) * es + t * es;  // column j at + j * c0 * es
                    auto* out = b_out + (g * c0 + t) * np;
                    for (uint64_t j = 0; j < np; ++j) out[j] = element(src + j * c0 * es);
                }
        };
        if (at == DType::i8) {
            ai.resize(mp * k);
            bi.resize(k * np);
            iacc.resize(np);
            decode(ai.data(), bi.data(),
                   [](const uint8_t* e) { return static_cast<int32_t>(static_cast<int8_t>(*e)); });
        } else {
            af.resize(mp * k);
            bf.resize(k * np);
            facc.resize(np);
            decode(af.data(), bf.data(), [at](const uint8_t* e) { return load_float(e, at); });
        }
        const uint64_t row_bytes = 16 * cs;  // one row of one fractal
        for (uint64_t i = 0; i < mp; ++i) {
            if (at == DType::i8) {
                uint32_t* acc = iacc.data();  // int32 with wrap-around
                for (uint64_t j0 = 0; j0 < np; j0 += 16)
                    if (init)
                        std::memset(acc + j0, 0, row_bytes);
                    else
                        std::memcpy(acc + j0, cd + c_off(i, j0) * cs, row_bytes);
                const int32_t* x = ai.data() + i * k;
                for (uint64_t kk = 0; kk < k; ++kk) {
                    const int32_t* y = bi.data() + kk * np;
                    for (uint64_t j = 0; j < np; ++j) acc[j] += static_cast<uint32_t>(x[kk] * y[j]);
                }
                for (uint64_t j0 = 0; j0 < np; j0 += 16)
                    std::memcpy(cd + c_off(i, j0) * cs, acc + j0, row_bytes);
            } else {
                // Float accumulators; each product rounded to float (exact for half/bf16), then added.
                float* acc = facc.data();
                for (uint64_t j0 = 0; j0 < np; j0 += 16)
                    if (init)
                        std::memset(acc + j0, 0, row_bytes);
                    else
                        std::memcpy(acc + j0, cd + c_off(i, j0) * cs, row_bytes);
                const float* x = af.data() + i * k;
                for (uint64_t kk = 0; kk < k; ++kk) {
                    const float* y = bf.data() + kk * np;
                    const float xk = x[kk];
                    for (uint64_t j = 0; j < np; ++j) {
                        const float prod = xk * y[j];
                        acc[j] = acc[j] + prod;
                    }
                }
                for (uint64_t j0 = 0; j0 < np; j0 += 16)
                    std::memcpy(cd + c_off(i, j0) * cs, acc + j0, row_bytes);
            }
            if (!all_ok)  // row i of each fractal: 16 contiguous elements, marked as one run where they agree
                for (uint64_t j0 = 0; j0 < np; j0 += 16) {
                    const uint64_t run = C.off + c_off(i, j0) * cs;
                    const bool cols = std::all_of(col_ok.begin() + static_cast<std::ptrdiff_t>(j0),
                                                  col_ok.begin() + static_cast<std::ptrdiff_t>(j0 + 16),
                                                  [](uint8_t ok) { return ok != 0; });
                    if (!row_ok[i] || (cols && (init || all_written(C.mem, run, row_bytes)))) {
                        C.mem->mark_written(run, row_bytes, row_ok[i] != 0);
                        continue;
                    }
                    for (uint64_t j = j0; j < j0 + 16; ++j) {
                        const bool w = col_ok[j] && (init || all_written(C.mem, run + (j - j0) * cs, cs));
                        C.mem->mark_written(run + (j - j0) * cs, cs, w);
                    }
                }
        }
        if (all_ok) C.mem->mark_written(C.off, mp * np * cs);
    };
    const uint64_t c_bytes = mp * np * cs;
    auto& writes = c.cube().mmad_writes;
    // Rule R3 (docs/hardware-model.md §1, §17): the M pipe orders an Mmad that accumulates into the region
    // the previous Mmad of this core wrote, with the same shape and enough fractals, after that Mmad. A
    // region another Mmad wrote over since (its record is gone), or a smaller tile, keeps the
    // PipeBarrier<PIPE_M> rule.
    const int ordered_fractals = c.arch().mmad_accumulate_ordered_fractals;
    if (!init && ordered_fractals > 0 && (m / 16) * (n / 16) >= static_cast<uint64_t>(ordered_fractals))
        for (const auto& w : writes)
            if (w.off == pc->off && w.mp == mp && w.np == np) {
                in->after = w.instr;
                in->after_epoch = w.epoch;
                break;
            }
    c.issue(std::move(in));
    if (!c.aborting()) {
        std::erase_if(writes,
                      [&](const auto& w) { return w.off < pc->off + c_bytes && pc->off < w.off + w.bytes; });
        writes.push_back({pc->off, c_bytes, mp, np, c.last_instr(), c.issued_epoch(evg::hw::Pipe::M)});
    }
    unit_flag_after(c, true, p.unitFlag, pc->off, c_bytes, site);
}

}  // namespace AscendC::detail
