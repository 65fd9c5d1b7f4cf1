// DataCopy and DataCopyPad: every copy becomes one instruction on MTE2 (into local memory), MTE3 (to GM) or V
// (UB to UB), described as byte segments so the race checker sees exactly the bytes touched.
#include "ascendc/data_copy.hpp"

#include <fmt/format.h>

#include <cstring>
#include <vector>

#include "evg/hw/machine.hpp"
#include "evg/hw/name_cache.hpp"
#include "evg/hw/numeric/convert.hpp"
#include "operands.hpp"

namespace AscendC::detail {

using evg::hw::Core;
using evg::hw::MemKind;
using evg::hw::Memory;
using evg::hw::Pipe;
using evg::hw::ViolationKind;

namespace {

// The copy's name ("DataCopy GM->UB", "DataCopyPad UB->GM", "DataCopy UB->UB"), formatted once per thread.
enum class CopyName : uint8_t { copy, pad };
const std::string& copy_name(CopyName k, MemKind src, MemKind dst) {
    const uint64_t key = (uint64_t{static_cast<uint8_t>(k)} << 16) |
                         (uint64_t{static_cast<uint8_t>(src)} << 8) | static_cast<uint8_t>(dst);
    return evg::hw::cached_name(key, [&] {
        return fmt::format("{} {}->{}", k == CopyName::pad ? "DataCopyPad" : "DataCopy",
                           evg::hw::mem_name(src), evg::hw::mem_name(dst));
    });
}

struct Seg {
    uint64_t src, dst, len;  // absolute byte offsets in the source and destination memories
};
struct Fill {
    uint64_t dst, len;
    bool defined;      // padding with a value (written) or dummy bytes (never written)
    uint64_t pattern;  // element bytes repeated
    uint32_t elem;
};

void issue_copy(Core& c, Pipe pipe, const std::string& op, Site site, Memory* dm, Memory* sm,
                std::vector<Seg> segs, std::vector<Fill> fills) {
    auto in = new_instr(pipe, op, site);
    bool to_gm = dm->kind() == MemKind::GM;
    evg::hw::AtomicOp atomic = to_gm ? c.atomic_op() : evg::hw::AtomicOp::none;
    evg::hw::DType adt = c.atomic_dtype();
    for (const auto& s : segs) {
        in->accesses.push_back({sm, s.src, s.src + s.len, false, false});
        in->accesses.push_back({dm, s.dst, s.dst + s.len, true, atomic != evg::hw::AtomicOp::none});
    }
    for (const auto& f : fills) in->accesses.push_back({dm, f.dst, f.dst + f.len, true, false});
    bool uninit = c.machine().config().checks.uninit;
    in->exec = [dm, sm, segs = std::move(segs), fills = std::move(fills), atomic, adt,
                uninit](evg::hw::Instr& self) {
        bool reported = false;
        for (const auto& s : segs) {
            if (atomic == evg::hw::AtomicOp::none) {
                reported |= !copy_bytes(self, dm, s.dst, sm, s.src, s.len, reported);
                continue;
            }
            uint32_t es = static_cast<uint32_t>(evg::hw::dtype_size(adt));
            if (uninit && !reported) {
                int64_t bad_dst = dm->first_unwritten(s.dst, s.len);
                int64_t bad_src = sm->first_unwritten(s.src, s.len);
                if (bad_dst >= 0 || bad_src >= 0) {
                    reported = true;
                    evg::hw::Access a{
                        bad_dst >= 0 ? dm : sm, static_cast<uint64_t>(bad_dst >= 0 ? bad_dst : bad_src),
                        static_cast<uint64_t>(bad_dst >= 0 ? bad_dst : bad_src) + 1, bad_dst >= 0, true};
                    self.core->violate(
                        ViolationKind::uninit_to_gm,
                        bad_dst >= 0
                            ? fmt::format("{} accumulates atomically into never-written GM byte {} of {}: "
                                          "initialise the output before the kernel",
                                          self.op, bad_dst, dm->name())
                            : fmt::format("{}{} accumulates never-written byte {} of {} into GM",
                                          uninit_cause(*self.core, sm, static_cast<uint64_t>(bad_src)),
                                          self.op, bad_src, sm->name()),
                        {self.core->location(self, &a)});
                }
            }
            for (uint64_t o = 0; o + es <= s.len; o += es)
                atomic_element(dm->data() + s.dst + o, sm->data() + s.src + o, adt, atomic);
            uint8_t* dw = dm->unfolded_written(s.dst, s.len);
            const uint8_t* sw = sm->unfolded_written(s.src, s.len);
            for (uint64_t o = 0; o < s.len; ++o) dw[o] = dw[o] && sw[o];
            dm->refold_written(s.dst, s.len);
            sm->refold_written(s.src, s.len);
        }
        for (const auto& f : fills) {
            for (uint64_t o = 0; o < f.len; ++o)
                dm->data()[f.dst + o] = reinterpret_cast<const uint8_t*>(&f.pattern)[o % f.elem];
            dm->mark_written(f.dst, f.len, f.defined);
        }
    };
    c.issue(std::move(in));
}

// The parameters of a strided or padded DataCopy (DataCopyParams, DataCopyExtParams): none may hold the fill
// of memory never initialised, and blockCount is at most 4095.
template <class Params>
bool check_copy_params(Core& c, const Params& p, const std::string& op, Site site) {
    if (c.machine().config().checks.uninit) {
        // (The fields come in a struct: the message says where the value came from, it cannot quote a
        // variable.)
        bool uninit = c.check_initialised(p.blockCount, "blockCount", op, site, "", 0);
        uninit |= c.check_initialised(p.blockLen, "blockLen", op, site, "", 0);
        uninit |= c.check_initialised(p.srcStride, "srcStride", op, site, "", 0);
        uninit |= c.check_initialised(p.dstStride, "dstStride", op, site, "", 0);
        if (uninit) return false;
    }
    if (p.blockCount <= 4095) return true;
    c.violate(ViolationKind::bad_param, fmt::format("{}: blockCount {} is above 4095", op, p.blockCount),
              {c.site_location(op, site)});
    return false;
}

// Truncation rule of the contiguous DataCopy: the hardware moves whole 32-byte blocks only.
uint64_t contiguous_bytes(Core& c, uint64_t count, uint32_t elem, const std::string& op, Site site) {
    // A count read from a 32-bit variable never assigned arrives widened: 0x00000000fefefefe.
    if (c.machine().config().checks.uninit &&
        (count >> 32 == 0
             ? c.check_initialised(static_cast<uint32_t>(count), "count", op, site, "DataCopy", 2)
             : c.check_initialised(count, "count", op, site, "DataCopy", 2)))
        return 0;
    uint64_t bytes = count * elem;
    if (bytes % 32 != 0 && c.machine().config().checks.memory)
        c.violate(
            ViolationKind::copy_truncated,
            fmt::format("{} of {} elements x {} B = {} B is not a multiple of 32 B: the hardware silently "
                        "copies only {} B (use DataCopyPad for unaligned lengths)",
                        op, count, elem, bytes, bytes / 32 * 32),
            {c.site_location(op, site)});
    return bytes / 32 * 32;
}

}  // namespace

void copy_gm_to_local(const LocalRef& dst, const void* src, uint64_t count, uint32_t elem, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const std::string& op = copy_name(CopyName::copy, MemKind::GM, dst.mem);
    uint64_t bytes = contiguous_bytes(c, count, elem, op, site);
    if (bytes == 0) return;
    auto d = local_operand(c, dst, bytes, OperandName(op, "dst"), site);
    auto s = gm_operand(c, src, bytes, elem, OperandName(op, "src"), site);
    if (!d || !s) return;
    issue_copy(c, Pipe::MTE2, op, site, d->mem, s->mem, {{s->off, d->off, bytes}}, {});
}

void copy_local_to_gm(void* dst, const LocalRef& src, uint64_t count, uint32_t elem, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const std::string& op = copy_name(CopyName::copy, src.mem, MemKind::GM);
    uint64_t bytes = contiguous_bytes(c, count, elem, op, site);
    if (bytes == 0) return;
    auto s = local_operand(c, src, bytes, OperandName(op, "src"), site);
    auto d = gm_operand(c, dst, bytes, elem, OperandName(op, "dst"), site);
    if (!d || !s) return;
    issue_copy(c, Pipe::MTE3, op, site, d->mem, s->mem, {{s->off, d->off, bytes}}, {});
}

void copy_local_to_local(const LocalRef& dst, const LocalRef& src, uint64_t count, uint32_t elem, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const std::string& op = copy_name(CopyName::copy, src.mem, dst.mem);
    uint64_t bytes = contiguous_bytes(c, count, elem, op, site);
    if (bytes == 0) return;
    auto s = local_operand(c, src, bytes, OperandName(op, "src"), site);
    auto d = local_operand(c, dst, bytes, OperandName(op, "dst"), site);
    if (!d || !s) return;
    issue_copy(c, Pipe::V, op, site, d->mem, s->mem, {{s->off, d->off, bytes}}, {});
}

namespace {
// Strided DataCopy: blocks of blockLen DataBlocks, gaps in DataBlocks on both sides.
void strided(Core& c, Pipe pipe, const std::string& op, Site site, const DataCopyParams& p, Memory* dm,
             uint64_t dbase, Memory* sm, uint64_t sbase) {
    std::vector<Seg> segs;
    uint64_t len = uint64_t(p.blockLen) * 32;
    for (uint32_t i = 0; i < p.blockCount; ++i)
        segs.push_back({sbase + i * (len + uint64_t(p.srcStride) * 32),
                        dbase + i * (len + uint64_t(p.dstStride) * 32), len});
    issue_copy(c, pipe, op, site, dm, sm, std::move(segs), {});
}
uint64_t strided_extent(const DataCopyParams& p, bool src) {
    if (p.blockCount == 0 || p.blockLen == 0) return 0;
    uint64_t len = uint64_t(p.blockLen) * 32, gap = uint64_t(src ? p.srcStride : p.dstStride) * 32;
    return (p.blockCount - 1) * (len + gap) + len;
}
}  // namespace

void copy_gm_to_local(const LocalRef& dst, const void* src, const DataCopyParams& p, uint32_t elem,
                      Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const std::string& op = copy_name(CopyName::copy, MemKind::GM, dst.mem);
    if (!check_copy_params(c, p, op, site) || p.blockCount == 0 || p.blockLen == 0) return;
    auto d = local_operand(c, dst, strided_extent(p, false), OperandName(op, "dst"), site);
    auto s = gm_operand(c, src, strided_extent(p, true), elem, OperandName(op, "src"), site);
    if (!d || !s) return;
    strided(c, Pipe::MTE2, op, site, p, d->mem, d->off, s->mem, s->off);
}

void copy_local_to_gm(void* dst, const LocalRef& src, const DataCopyParams& p, uint32_t elem, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const std::string& op = copy_name(CopyName::copy, src.mem, MemKind::GM);
    if (!check_copy_params(c, p, op, site) || p.blockCount == 0 || p.blockLen == 0) return;
    auto s = local_operand(c, src, strided_extent(p, true), OperandName(op, "src"), site);
    auto d = gm_operand(c, dst, strided_extent(p, false), elem, OperandName(op, "dst"), site);
    if (!d || !s) return;
    strided(c, Pipe::MTE3, op, site, p, d->mem, d->off, s->mem, s->off);
}

void copy_local_to_local(const LocalRef& dst, const LocalRef& src, const DataCopyParams& p, uint32_t,
                         Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const std::string& op = copy_name(CopyName::copy, src.mem, dst.mem);
    if (!check_copy_params(c, p, op, site) || p.blockCount == 0 || p.blockLen == 0) return;
    auto s = local_operand(c, src, strided_extent(p, true), OperandName(op, "src"), site);
    auto d = local_operand(c, dst, strided_extent(p, false), OperandName(op, "dst"), site);
    if (!d || !s) return;
    strided(c, Pipe::V, op, site, p, d->mem, d->off, s->mem, s->off);
}

void copy_pad_gm_to_local(const LocalRef& dst, const void* src, const DataCopyExtParams& p,
                          const PadSpec& pad, uint32_t elem, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const std::string& op = copy_name(CopyName::pad, MemKind::GM, dst.mem);
    bool chk = c.machine().config().checks.memory;
    if (!check_copy_params(c, p, op, site)) return;
    auto bad = [&](const std::string& msg) {
        c.violate(ViolationKind::bad_param, op + ": " + msg, {c.site_location(op, site)});
    };
    if (p.blockLen > 2097151) return bad(fmt::format("blockLen {} B is above 2097151", p.blockLen));
    if (chk && p.blockLen % elem != 0)
        return bad(fmt::format("blockLen {} B is not a multiple of the element size {} B", p.blockLen, elem));
    uint32_t lp = pad.left * elem, rp = pad.right * elem;
    if (chk && (lp > 32 || rp > 32))
        return bad(
            fmt::format("padding of {} + {} elements is more than 32 bytes on a side", pad.left, pad.right));
    if (chk && elem == 8 && pad.is_pad && pad.value_bits != 0) return bad("64-bit types need paddingValue 0");
    if (p.blockCount == 0 || p.blockLen == 0) return;
    uint64_t row_ub = (uint64_t(lp) + p.blockLen + rp + 31) / 32 * 32;  // padded UB footprint of one block
    uint64_t ub_pitch = row_ub + uint64_t(p.dstStride) * 32;
    uint64_t gm_pitch = uint64_t(p.blockLen) + p.srcStride;
    auto d = local_operand(c, dst, (p.blockCount - 1) * ub_pitch + row_ub, OperandName(op, "dst"), site);
    auto s = gm_operand(c, src, (p.blockCount - 1) * gm_pitch + p.blockLen, 1, OperandName(op, "src"), site);
    if (!d || !s) return;
    std::vector<Seg> segs;
    std::vector<Fill> fills;
    for (uint32_t i = 0; i < p.blockCount; ++i) {
        uint64_t ub = d->off + i * ub_pitch;
        segs.push_back({s->off + i * gm_pitch, ub + lp, p.blockLen});
        // Padding: paddingValue when isPad, otherwise undefined bytes (kept as never written).
        uint64_t first = 0;
        std::memcpy(&first, s->mem->data() + s->off + i * gm_pitch, std::min<uint64_t>(elem, p.blockLen));
        uint64_t pat = pad.is_pad ? pad.value_bits : first;
        if (lp) fills.push_back({ub, lp, pad.is_pad, pat, elem});
        if (rp) fills.push_back({ub + lp + p.blockLen, rp, pad.is_pad, pat, elem});
        uint64_t used = uint64_t(lp) + p.blockLen + rp;
        if (row_ub > used) fills.push_back({ub + used, row_ub - used, false, first, elem});
    }
    issue_copy(c, Pipe::MTE2, op, site, d->mem, s->mem, std::move(segs), std::move(fills));
}

void copy_pad_local_to_gm(void* dst, const LocalRef& src, const DataCopyExtParams& p, uint32_t elem,
                          Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const std::string& op = copy_name(CopyName::pad, src.mem, MemKind::GM);
    bool chk = c.machine().config().checks.memory;
    if (!check_copy_params(c, p, op, site)) return;
    if (p.blockLen > 2097151 || (chk && p.blockLen % elem != 0)) {
        c.violate(ViolationKind::bad_param,
                  fmt::format("{}: blockLen {} B must be at most 2097151 and a multiple of {} B", op,
                              p.blockLen, elem),
                  {c.site_location(op, site)});
        return;
    }
    if (p.blockCount == 0 || p.blockLen == 0) return;
    uint64_t row_ub = (uint64_t(p.blockLen) + 31) / 32 * 32;
    uint64_t ub_pitch = row_ub + uint64_t(p.srcStride) * 32;
    uint64_t gm_pitch = uint64_t(p.blockLen) + p.dstStride;
    auto s = local_operand(c, src, (p.blockCount - 1) * ub_pitch + p.blockLen, OperandName(op, "src"), site);
    auto d = gm_operand(c, dst, (p.blockCount - 1) * gm_pitch + p.blockLen, 1, OperandName(op, "dst"), site);
    if (!d || !s) return;
    std::vector<Seg> segs;
    for (uint32_t i = 0; i < p.blockCount; ++i)
        segs.push_back({s->off + i * ub_pitch, d->off + i * gm_pitch, p.blockLen});
    issue_copy(c, Pipe::MTE3, op, site, d->mem, s->mem, std::move(segs), {});
}

}  // namespace AscendC::detail
