// Fixpipe L0C -> GM / UB on PIPE_FIX (docs/hardware-model.md §16.5): NZ -> ND with the dtype conversion of
// quantPre, atomics to GM, unitFlag, and Ascend950's dual destination.
#include <fmt/format.h>

#include <cstring>
#include <vector>

#include "ascendc/fixpipe.hpp"
#include "cube_common.hpp"

namespace AscendC::detail {

bool fixpipe_unit_before(evg::hw::Core& c, uint8_t uf, uint64_t off, uint64_t bytes, const std::string& op,
                         Site site);
void fixpipe_unit_after(evg::hw::Core& c, uint8_t uf, uint64_t off, uint64_t bytes, Site site);

using evg::hw::Core;
using evg::hw::DType;
using evg::hw::MemKind;
using evg::hw::Memory;
using evg::hw::Pipe;
using evg::hw::ViolationKind;
using namespace cube;

namespace {

const char* quant_name(QuantMode_t q) {
    static constexpr const char* names[] = {
        "NoQuant",       "F322F16",       "F322BF16",       "DEQF16",        "VDEQF16",        "QF322B8_PRE",
        "VQF322B8_PRE",  "REQ8",          "VREQ8",          "QS322BF16_PRE", "VQS322BF16_PRE", "QF322F16_PRE",
        "VQF322F16_PRE", "QF322BF16_PRE", "VQF322BF16_PRE", "QF322F32_PRE",  "VQF322F32_PRE"};
    auto i = static_cast<size_t>(q);
    return i < std::size(names) ? names[i] : "?";
}

// The destination type quantPre produces from the L0C type, or nothing for a mode the model does not provide.
bool quant_target(DType st, QuantMode_t q, DType& out) {
    if (q == QuantMode_t::NoQuant && (st == DType::f32 || st == DType::i32)) return out = st, true;
    if (q == QuantMode_t::F322F16 && st == DType::f32) return out = DType::f16, true;
    if (q == QuantMode_t::F322BF16 && st == DType::f32) return out = DType::bf16, true;
    return false;
}

struct Part {  // one destination of a Fixpipe: rows [r0, r0 + m) and columns [c0, c0 + n) of L0C
    Memory* mem;
    uint64_t off;
    uint64_t r0, c0, m, n;
};

void issue(Core& c, const std::string& op, Site site, Place src, DType st, DType dt, uint64_t src_stride,
           uint64_t dst_stride, std::vector<Part> parts, evg::hw::AtomicOp atomic) {
    auto in = new_instr(Pipe::FIX, op, site);
    const uint64_t ss = 4, ds = static_cast<uint64_t>(evg::hw::dtype_size(dt));
    const bool is_atomic = atomic != evg::hw::AtomicOp::none;
    auto l0c = [src, src_stride](uint64_t i, uint64_t j) {
        return src.off + ((j / 16) * src_stride * 16 + i * 16 + j % 16) * 4;
    };
    for (const Part& p : parts) {
        for (uint64_t jb = p.c0 / 16; jb * 16 < p.c0 + p.n; ++jb) {
            uint64_t b = l0c(p.r0, jb * 16);
            in->accesses.push_back({src.mem, b, b + p.m * 16 * ss, false, false});
        }
        for (uint64_t i = 0; i < p.m; ++i) {
            uint64_t d = p.off + i * dst_stride * ds;
            in->accesses.push_back({p.mem, d, d + p.n * ds, true, is_atomic});
        }
    }
    const bool uninit = c.machine().config().checks.uninit;
    // Each result is tested as it is stored (fp_scan.hpp); accumulations (atomic) are not followed.
    const bool tests = c.machine().wants_results() && !is_atomic;
    in->tests_results = tests;
    in->exec = [src, st, dt, ds, dst_stride, parts = std::move(parts), atomic, is_atomic, uninit, tests,
                l0c](evg::hw::Instr& self) {
        bool reported = false;
        const evg::hw::FpBits fo = evg::hw::FpBits::of(dt), fi = evg::hw::FpBits::of(st);
        // One scan per destination memory (a checker drops the tags of the instruction's writes there).
        std::vector<std::pair<Memory*, evg::hw::FpScan>> scans;
        for (const Part& p : parts) {
            evg::hw::FpScan* scan_of = nullptr;
            if (tests) {
                for (auto& [m, sc] : scans)
                    if (m == p.mem) scan_of = &sc;
                if (!scan_of) scan_of = &scans.emplace_back(p.mem, evg::hw::FpScan{}).second;
            }
            const bool to_gm = p.mem->kind() == MemKind::GM;
            for (uint64_t i = 0; i < p.m; ++i) {
                for (uint64_t j = 0; j < p.n; ++j) {
                    const uint64_t s = l0c(p.r0 + i, p.c0 + j);
                    const uint64_t d = p.off + i * dst_stride * ds + j * ds;
                    const bool sw = all_written(src.mem, s, 4);
                    const bool dw = !is_atomic || all_written(p.mem, d, ds);
                    if (to_gm && uninit && !reported && (!sw || !dw)) {
                        reported = true;
                        evg::hw::Access a{sw ? p.mem : src.mem, sw ? d : s, (sw ? d : s) + 1, sw, is_atomic};
                        self.core->violate(
                            ViolationKind::uninit_to_gm,
                            !sw ? fmt::format("{}{} stores never-written L0C bytes to GM: element ({}, {}) "
                                              "at byte {} "
                                              "of {} was never written",
                                              uninit_cause(*self.core, src.mem, s), self.op, p.r0 + i,
                                              p.c0 + j, s, src.mem->name())
                                : fmt::format(
                                      "{} accumulates atomically into never-written GM byte {} of {}: "
                                      "initialise the output before the kernel",
                                      self.op, d, p.mem->name()),
                            {self.core->location(self, &a)});
                    }
                    uint8_t out[4];
                    if (st == dt)
                        std::memcpy(out, src.mem->data() + s, 4);
                    else
                        store_float(out, dt, load_float(src.mem->data() + s, st));
                    if (is_atomic)
                        atomic_element(p.mem->data() + d, out, dt, atomic);
                    else
                        std::memcpy(p.mem->data() + d, out, ds);
                    p.mem->mark_written(d, ds, sw && dw);
                    if (!tests || !fo.is_float()) continue;
                    const uint32_t bits = fo.load(out);
                    if (fo.finite(bits)) {
                        scan_of->subnormal += fo.subnormal(bits) ? 1 : 0;
                        continue;
                    }
                    evg::hw::FpLane l;
                    l.dst = d;
                    l.src[0] = s;
                    l.in[0] = l.wide = load_float(src.mem->data() + s, st);
                    l.cls = fo.cls(bits);
                    l.born = !fi.is_float() || fi.finite(fi.load(src.mem->data() + s));
                    l.unwritten = l.born && !sw;
                    scan_of->lanes.push_back(l);
                }
            }
        }
        for (auto& [m, sc] : scans) {
            self.core->machine().notify_result({self,
                                                self.core->index(),
                                                m,
                                                dt,
                                                {src.mem, nullptr},
                                                st,
                                                0.0,
                                                false,
                                                sc.lanes,
                                                sc.subnormal});
        }
    };
    c.issue(std::move(in));
}

// Checks shared by both destinations; returns the L0C place, or nothing (reported).
std::optional<Place> check(Core& c, const std::string& op, DType dt, const LocalRef& src, DType st,
                           const FixSpec& f, Site site) {
    if (!require_aic(c, op, site)) return std::nullopt;
    if (!require_mem(c, src, {MemKind::L0C}, op, "the source (CO1)", site)) return std::nullopt;
    if (!f.row_major) unmodelled("Fixpipe with the NZ destination layout (CFG_NZ / nz2ndEn false)", site);
    if (f.relu) unmodelled("Fixpipe with ReLU (reluEn)", site);
    if (f.channel_split) unmodelled("Fixpipe with channel split", site);
    const uint64_t nd = f.nd_from_flag ? c.cube().nd_num : f.nd_num;
    if (nd > 1) unmodelled("Fixpipe with ndNum > 1 (SetFixpipeNz2ndFlag / params.ndNum)", site);
    DType want;
    if (!quant_target(st, f.quant, want)) {
        if (st == DType::f32 || st == DType::i32)
            unmodelled(fmt::format("Fixpipe quantPre {}", quant_name(f.quant)).c_str(), site);
        fail(c, ViolationKind::illegal_dtype, op,
             fmt::format("L0C holds {}: it must be float or int32", evg::hw::dtype_name(st)), site);
        return std::nullopt;
    }
    if (want != dt) {
        fail(c, ViolationKind::illegal_dtype, op,
             fmt::format("quantPre {} turns L0C {} into {}, but the destination is {}", quant_name(f.quant),
                         evg::hw::dtype_name(st), evg::hw::dtype_name(want), evg::hw::dtype_name(dt)),
             site);
        return std::nullopt;
    }
    if (f.m == 0 || f.n == 0) return std::nullopt;
    if (f.src_stride < f.m) {
        fail(c, ViolationKind::bad_param, op,
             fmt::format("srcStride {} must be at least mSize = {} (rows of an L0C column "
                         "block)",
                         f.src_stride, f.m),
             site);
        return std::nullopt;
    }
    if (f.dst_stride < f.n) {
        fail(c, ViolationKind::bad_param, op,
             fmt::format("dstStride {} must be at least nSize = {}", f.dst_stride, f.n), site);
        return std::nullopt;
    }
    const uint64_t bytes = ((round_up(f.n, 16) / 16 - 1) * f.src_stride * 16 + round_up(f.m, 16) * 16) * 4;
    return local_operand(c, src, bytes, OperandName(op, "src"), site);
}

std::string op_name(const char* dst, const FixSpec& f) {
    return fmt::format("Fixpipe L0C->{}{}", dst,
                       f.dual == 1   ? " (dual, split M)"
                       : f.dual == 2 ? " (dual, split N)"
                                     : "");
}

}  // namespace

void set_fixpipe_nz2nd_flag(uint64_t nd_num, uint64_t src_nd_stride, uint64_t dst_nd_stride, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    if (nd_num == 0)
        return void(
            fail(c, ViolationKind::bad_param, "SetFixpipeNz2ndFlag", "ndNum must be at least 1", site));
    auto& st = c.cube();
    st.nd_num = static_cast<uint16_t>(nd_num);
    st.src_nd_stride = static_cast<uint32_t>(src_nd_stride);
    st.dst_nd_stride = static_cast<uint32_t>(dst_nd_stride);
}

void fixpipe_gm(void* dst, DType dt, const LocalRef& src, DType st, const FixSpec& f, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const std::string op = op_name("GM", f);
    if (f.dual != 0)
        return void(fail(
            c, ViolationKind::bad_param, op,
            fmt::format("dualDstCtl {} sends to the two AIVs' UBs; a GM destination takes 0", f.dual), site));
    auto s = check(c, op, dt, src, st, f, site);
    if (!s) return;
    const uint64_t ds = static_cast<uint64_t>(evg::hw::dtype_size(dt));
    auto d = gm_operand(c, dst, (f.m - 1) * f.dst_stride * ds + f.n * ds, static_cast<uint32_t>(ds),
                        OperandName(op, "dst"), site);
    if (!d) return;
    const uint64_t l0c_bytes =
        ((round_up(f.n, 16) / 16 - 1) * f.src_stride * 16 + round_up(f.m, 16) * 16) * 4;
    if (!fixpipe_unit_before(c, f.unit_flag, s->off, l0c_bytes, op, site)) return;
    issue(c, op, site, *s, st, dt, f.src_stride, f.dst_stride, {{d->mem, d->off, 0, 0, f.m, f.n}},
          c.atomic_op());
    fixpipe_unit_after(c, f.unit_flag, s->off, l0c_bytes, site);
}

void fixpipe_ub(const LocalRef& dst, DType dt, const LocalRef& src, DType st, const FixSpec& f, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const std::string op = op_name("UB", f);
    if (c.arch().id != evg::hw::ArchId::Ascend950)
        return void(
            fail(c, ViolationKind::bad_param, op,
                 fmt::format("the L0C->UB data path does not exist on {} (Ascend950 only, "
                             "docs/hardware-model.md §1); go through GM (Fixpipe to a GM workspace, then "
                             "DataCopy on the AIV)",
                             c.arch().name),
                 site));
    if (!require_mem(c, dst, {MemKind::UB}, op, "the destination (VECCALC/VECIN/VECOUT)", site)) return;
    if (f.dual > 2)
        return void(fail(c, ViolationKind::bad_param, op,
                         fmt::format("dualDstCtl {} is not 0, 1 or 2", f.dual), site));
    if (f.dual == 1 && f.m % 2 != 0)
        return void(fail(c, ViolationKind::bad_param, op,
                         fmt::format("dualDstCtl 1 splits M between the AIVs: mSize {} must be even", f.m),
                         site));
    if (f.dual == 2 && f.n % 32 != 0)
        return void(fail(
            c, ViolationKind::bad_param, op,
            fmt::format("dualDstCtl 2 splits N between the AIVs: nSize {} must be a multiple of 32", f.n),
            site));
    if (f.dual != 0 && (f.relu || (f.quant != QuantMode_t::NoQuant && f.quant != QuantMode_t::F322F16 &&
                                   f.quant != QuantMode_t::F322BF16)))
        return void(
            fail(c, ViolationKind::bad_param, op, "dualDstCtl allows no quantisation and no ReLU", site));
    auto s = check(c, op, dt, src, st, f, site);
    if (!s) return;
    const uint64_t ds = static_cast<uint64_t>(evg::hw::dtype_size(dt));
    std::vector<Part> parts;
    auto add = [&](uint8_t sub, uint64_t r0, uint64_t c0, uint64_t m, uint64_t n) -> bool {
        Core* aiv = c.machine().aiv_of(c.block(), sub);
        Memory* ub = aiv ? aiv->local(MemKind::UB) : nullptr;
        if (!ub)
            return fail(c, ViolationKind::bad_param, op,
                        fmt::format("block {} has no AIV {} (kernel type must be mix with that many AIVs)",
                                    c.block(), int{sub}),
                        site);
        const uint64_t bytes = (m - 1) * f.dst_stride * ds + n * ds;
        if (!ub->contains(dst.addr, bytes))
            return fail(c, ViolationKind::out_of_bounds, op,
                        fmt::format("dst touches UB bytes [{}, {}) of {}, beyond its {} B", dst.addr,
                                    dst.addr + bytes, ub->name(), ub->size()),
                        site);
        const uint32_t align = evg::hw::mem_alignment(c.arch(), MemKind::UB);
        if (c.machine().config().checks.memory && dst.addr % align != 0)
            fail(c, ViolationKind::misaligned, op,
                 fmt::format("dst address {} in {} is not {}-byte aligned", dst.addr, ub->name(), align),
                 site);
        ub->note_touch(dst.addr, dst.addr + bytes);
        parts.push_back({ub, dst.addr, r0, c0, m, n});
        return true;
    };
    bool ok = f.dual == 0   ? add(f.sub_block, 0, 0, f.m, f.n)
              : f.dual == 1 ? add(0, 0, 0, f.m / 2, f.n) && add(1, f.m / 2, 0, f.m / 2, f.n)
                            : add(0, 0, 0, f.m, f.n / 2) && add(1, 0, f.n / 2, f.m, f.n / 2);
    if (!ok) return;
    const uint64_t l0c_bytes =
        ((round_up(f.n, 16) / 16 - 1) * f.src_stride * 16 + round_up(f.m, 16) * 16) * 4;
    if (!fixpipe_unit_before(c, f.unit_flag, s->off, l0c_bytes, op, site)) return;
    issue(c, op, site, *s, st, dt, f.src_stride, f.dst_stride, std::move(parts), evg::hw::AtomicOp::none);
    fixpipe_unit_after(c, f.unit_flag, s->off, l0c_bytes, site);
}

}  // namespace AscendC::detail
