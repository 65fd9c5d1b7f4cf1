// DataCopy GM -> L1 with ND -> zN conversion (Nd2NzParams) on PIPE_MTE2 (docs/hardware-model.md §16.1).
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "ascendc/data_copy.hpp"
#include "cube_common.hpp"

namespace AscendC::detail {

using evg::hw::Core;
using evg::hw::MemKind;
using evg::hw::Memory;
using evg::hw::Pipe;

void copy_nd2nz(const LocalRef& dst, const void* src, const Nd2NzSpec& p, uint32_t elem, Site site) {
    Core& c = evg::hw::current_core();
    if (c.aborting()) return;
    const std::string op = fmt::format("DataCopy Nd2Nz GM->{}", evg::hw::mem_name(dst.mem));
    if (!cube::require_mem(c, dst, {MemKind::L1}, op, "the destination (A1/B1)", site)) return;
    if (p.nd_num == 0 || p.n == 0 || p.d == 0) return;  // no instruction
    const uint64_t row_bytes = p.d * elem, blocks = (row_bytes + 31) / 32;
    // Extents, for the bounds checks.
    const uint64_t src_bytes =
        ((p.nd_num - 1) * p.src_matrix_stride + (p.n - 1) * p.src_d) * elem + row_bytes;
    const uint64_t dst_bytes = (p.nd_num - 1) * p.dst_matrix_stride * elem + (p.n - 1) * p.dst_n_stride * 32 +
                               (blocks - 1) * p.dst_c0_stride * 32 + 32;
    auto d = local_operand(c, dst, dst_bytes, OperandName(op, "dst"), site);
    auto s = gm_operand(c, src, src_bytes, 1, OperandName(op, "src"), site);
    if (!d || !s) return;
    struct Block {
        uint64_t src, dst, len;  // len < 32: the rest of the 32-byte block is zero-filled
    };
    std::vector<Block> moves;
    moves.reserve(p.nd_num * p.n * blocks);
    auto in = new_instr(Pipe::MTE2, op, site);
    for (uint64_t i = 0; i < p.nd_num; ++i) {
        const uint64_t sm = s->off + i * p.src_matrix_stride * elem,
                       dm = d->off + i * p.dst_matrix_stride * elem;
        for (uint64_t j = 0; j < p.n; ++j) {
            const uint64_t sr = sm + j * p.src_d * elem;
            in->accesses.push_back({s->mem, sr, sr + row_bytes, false, false});
            for (uint64_t b = 0; b < blocks; ++b)
                moves.push_back({sr + b * 32, dm + j * p.dst_n_stride * 32 + b * p.dst_c0_stride * 32,
                                 std::min<uint64_t>(32, row_bytes - b * 32)});
        }
        // Destination ranges: each column block of C0 elements, rows merged where they are adjacent.
        for (uint64_t b = 0; b < blocks; ++b) {
            uint64_t begin = dm + b * p.dst_c0_stride * 32, end = begin + 32;
            for (uint64_t j = 1; j < p.n; ++j) {
                uint64_t x = dm + j * p.dst_n_stride * 32 + b * p.dst_c0_stride * 32;
                if (x == end) {
                    end += 32;
                } else {
                    in->accesses.push_back({d->mem, begin, end, true, false});
                    begin = x;
                    end = x + 32;
                }
            }
            in->accesses.push_back({d->mem, begin, end, true, false});
        }
    }
    Memory* dmem = d->mem;
    Memory* smem = s->mem;
    in->exec = [dmem, smem, moves = std::move(moves)](evg::hw::Instr& self) {
        for (const Block& mv : moves) {
            copy_bytes(self, dmem, mv.dst, smem, mv.src, mv.len, true);
            if (mv.len < 32) {
                std::fill_n(dmem->data() + mv.dst + mv.len, 32 - mv.len, uint8_t{0});
                dmem->mark_written(mv.dst + mv.len, 32 - mv.len, true);
            }
        }
    };
    c.issue(std::move(in));
}

}  // namespace AscendC::detail
