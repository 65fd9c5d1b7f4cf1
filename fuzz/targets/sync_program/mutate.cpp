// Structure-aware mutation of sync_program inputs: decode, edit the program's ops, encode. The byte decoder
// stays the format; every edit yields a program the decoder makes (new ops are themselves decoded from random
// bytes, and the result must survive encode -> decode unchanged).
#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "sync_program.hpp"

namespace evg::fuzz {

using explore::CoreType;
using explore::Op;
using explore::OpKind;
using explore::Pipe;

namespace {

using Rng = std::mt19937_64;

size_t below(Rng& rng, size_t n) {
    return n == 0 ? 0 : static_cast<size_t>(rng() % n);
}

uint8_t head_of(const explore::Program& p) {
    const int shape = p.topo.mix ? 2 : (p.topo.block_dim == 2 ? 1 : 0);
    return static_cast<uint8_t>((p.topo.chip == explore::Chip::Ascend950 ? 1 : 0) | shape << 1);
}

// A random op for core `c` of a program shaped like `p`, made by the decoder from random bytes; cross-core
// ops are favoured in mix launches.
std::vector<Op> random_ops(const explore::Program& p, int c, Rng& rng) {
    std::vector<uint8_t> bytes{head_of(p), static_cast<uint8_t>(c)};
    for (int k = 0; k < 8; ++k) bytes.push_back(static_cast<uint8_t>(rng()));
    if (p.topo.mix && rng() % 2) bytes[2] = static_cast<uint8_t>(9 + rng() % 2);  // a cross-core op
    explore::Program one = decode_sync_program(bytes.data(), bytes.size());
    return one.cores.at(static_cast<size_t>(c));
}

// Legal values of an op's fields on its core, as the decoder offers them.
std::vector<int> modes_for(const explore::Program& p, int c) {
    const bool aiv = p.topo.cores[static_cast<size_t>(c)].type == CoreType::AIV;
    std::vector<int> m = aiv ? std::vector<int>{0, 1, 2} : std::vector<int>{0, 2};
    if (p.topo.chip == explore::Chip::Ascend950) m.push_back(4);
    return m;
}
std::vector<Pipe> cross_pipes_for(const explore::Program& p, int c, int mode) {
    std::vector<Pipe> out;
    const CoreType t = p.topo.cores[static_cast<size_t>(c)].type;
    for (Pipe q : {Pipe::S, Pipe::V, Pipe::M, Pipe::MTE1, Pipe::MTE2, Pipe::MTE3, Pipe::FIX})
        if ((mode == 4 || q != Pipe::S) && explore::core_has_pipe(p.topo.chip, t, q)) out.push_back(q);
    return out;
}

// Changes one field of op `op` of core `c`: a cross-core op's mode, pipe, flag or direction; a flag op's id
// or direction; a data op's block.
void tweak(const explore::Program& p, int c, Op& op, Rng& rng) {
    switch (op.kind) {
        case OpKind::cross_set:
        case OpKind::cross_wait:
            switch (rng() % 4) {
                case 0: {
                    auto modes = modes_for(p, c);
                    op.mode = modes[below(rng, modes.size())];
                    auto pipes = cross_pipes_for(p, c, op.mode);
                    if (std::find(pipes.begin(), pipes.end(), op.pipe) == pipes.end())
                        op.pipe = pipes[below(rng, pipes.size())];
                    if (op.mode != 4) op.flag %= 16;
                    break;
                }
                case 1: {
                    auto pipes = cross_pipes_for(p, c, op.mode);
                    op.pipe = pipes[below(rng, pipes.size())];
                    break;
                }
                case 2:
                    op.flag = op.flag / 16 * 16 + static_cast<int>(rng() % 4);
                    break;
                default:
                    op.kind = op.kind == OpKind::cross_set ? OpKind::cross_wait : OpKind::cross_set;
            }
            break;
        case OpKind::set_flag:
        case OpKind::wait_flag:
            if (rng() % 2)
                op.id = static_cast<int>(rng() % 8);
            else
                op.kind = op.kind == OpKind::set_flag ? OpKind::wait_flag : OpKind::set_flag;
            break;
        default:
            for (explore::Range* r : {&op.dst, &op.src0, &op.src1})
                if (r->mem >= 0 && rng() % 2) {
                    const uint32_t len = r->end - r->begin;
                    r->begin = 32u * static_cast<uint32_t>(rng() % 4);
                    r->end = r->begin + len;
                }
    }
}

size_t total_ops(const explore::Program& p) {
    size_t n = 0;
    for (const auto& ops : p.cores) n += ops.size();
    return n;
}

bool within_limits(const explore::Program& p) {
    for (const auto& ops : p.cores)
        if (ops.size() > static_cast<size_t>(kMaxOpsPerCore)) return false;
    return total_ops(p) <= static_cast<size_t>(kMaxOps);
}

// Core `from`'s ops as core `to` would issue them: accesses to `from`'s local memory go to `to`'s.
std::vector<Op> on_core(const explore::Program& p, std::vector<Op> ops, int from, int to) {
    for (Op& op : ops)
        for (explore::Range* r : {&op.dst, &op.src0, &op.src1})
            if (r->mem >= 0 && p.mems[static_cast<size_t>(r->mem)].owner == from)
                for (size_t m = 0; m < p.mems.size(); ++m)
                    if (p.mems[m].owner == to) r->mem = static_cast<int>(m);
    return ops;
}

// One edit; false when it does not apply to this program.
bool edit(explore::Program& p, Rng& rng) {
    const int ncores = static_cast<int>(p.cores.size());
    const int c = static_cast<int>(below(rng, static_cast<size_t>(ncores)));
    auto& ops = p.cores[static_cast<size_t>(c)];
    const uint64_t kind = rng() % 9;
    switch (kind) {
        case 0:
        case 1: {  // insert a new op
            auto fresh = random_ops(p, c, rng);
            ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(below(rng, ops.size() + 1)), fresh.begin(),
                       fresh.end());
            return true;
        }
        case 2:  // delete an op
            if (ops.empty()) return false;
            ops.erase(ops.begin() + static_cast<std::ptrdiff_t>(below(rng, ops.size())));
            return true;
        case 3: {  // swap two ops of one core
            if (ops.size() < 2) return false;
            size_t a = below(rng, ops.size()), b = below(rng, ops.size());
            if (rng() % 2) b = a + 1 < ops.size() ? a + 1 : a - 1;
            std::swap(ops[a], ops[b]);
            return true;
        }
        case 4:
        case 5:  // change the mode, pipe, flag or id of an op
            if (ops.empty()) return false;
            tweak(p, c, ops[below(rng, ops.size())], rng);
            return true;
        case 6:    // duplicate a core's stream onto another core of the same type (the two AIVs of a block)
        case 7: {  // or exchange the two streams: the same program with the roles of the two cores swapped
            const int d = static_cast<int>(below(rng, static_cast<size_t>(ncores)));
            if (d == c ||
                p.topo.cores[static_cast<size_t>(d)].type != p.topo.cores[static_cast<size_t>(c)].type)
                return false;
            std::vector<Op> moved = on_core(p, ops, c, d);
            if (kind == 7)
                p.cores[static_cast<size_t>(c)] = on_core(p, p.cores[static_cast<size_t>(d)], d, c);
            p.cores[static_cast<size_t>(d)] = std::move(moved);
            return true;
        }
        default: {  // copy a cross-core op to another core with the same mode and flag, as set or wait
            if (!p.topo.mix || ops.empty()) return false;
            const Op& src = ops[below(rng, ops.size())];
            if (src.kind != OpKind::cross_set && src.kind != OpKind::cross_wait) return false;
            const int d = static_cast<int>(below(rng, static_cast<size_t>(ncores)));
            Op op = src;
            if (rng() % 2) op.kind = op.kind == OpKind::cross_set ? OpKind::cross_wait : OpKind::cross_set;
            auto& dst = p.cores[static_cast<size_t>(d)];
            dst.insert(dst.begin() + static_cast<std::ptrdiff_t>(below(rng, dst.size() + 1)), op);
            return true;
        }
    }
}

}  // namespace

std::vector<uint8_t> mutate_sync_program(const uint8_t* data, size_t size, size_t max_size, uint64_t seed) {
    Rng rng(seed);
    const explore::Program original = decode_sync_program(data, size);
    for (int attempt = 0; attempt < 16; ++attempt) {
        explore::Program p = original;
        if (rng() % 16 == 0) {  // the other chip, same ops where legal
            p.topo = explore::make_topology(
                p.topo.chip == explore::Chip::AtlasA2 ? explore::Chip::Ascend950 : explore::Chip::AtlasA2,
                p.topo.mix, p.topo.block_dim);
        }
        const int edits = 1 + static_cast<int>(rng() % 3);
        bool changed = false;
        for (int k = 0; k < edits; ++k) changed |= edit(p, rng);
        if (!changed || !within_limits(p)) continue;
        std::vector<uint8_t> bytes;
        try {
            explore::validate(p);
            bytes = encode_sync_program(p);
        } catch (const explore::Error&) {
            continue;  // an op the decoder cannot make on this chip or core
        }
        if (bytes.size() > max_size) continue;
        const std::string back = describe_program(decode_sync_program(bytes.data(), bytes.size()));
        if (back != describe_program(p) || back == describe_program(original)) continue;
        return bytes;
    }
    return {};
}

}  // namespace evg::fuzz
