// Structure-aware decoding: the first byte picks the chip and the launch, then each op takes a core byte, a
// kind byte and its operand bytes. Missing bytes read as 0, so every byte string is a valid program.
#include <fmt/format.h>

#include <vector>

#include "evg/explore/builder.hpp"
#include "sync_program.hpp"

namespace evg::fuzz {

using explore::Chip;
using explore::CoreType;
using explore::Event;
using explore::Pipe;
using explore::Range;

namespace {

class Reader {
  public:
    Reader(const uint8_t* d, size_t n) : d_(d), n_(n) {}
    // Always consumes a byte (when there is one), so that decoding makes progress.
    int pick(int k) {
        int b = pos_ < n_ ? d_[pos_++] : 0;
        return k <= 1 ? 0 : b % k;
    }
    bool more() const { return pos_ < n_; }

  private:
    const uint8_t* d_;
    size_t n_;
    size_t pos_ = 0;
};

// Events a core can use on this chip: in its event pool, with both pipes present.
std::vector<Event> events_for(Chip chip, CoreType t) {
    static constexpr Pipe kPipes[] = {Pipe::S,    Pipe::V,    Pipe::M,  Pipe::MTE1,
                                      Pipe::MTE2, Pipe::MTE3, Pipe::FIX};
    std::vector<Event> out;
    for (Pipe s : kPipes)
        for (Pipe d : kPipes) {
            Event e{s, d};
            if (explore::event_valid(t, e) && explore::core_has_pipe(chip, t, s) &&
                explore::core_has_pipe(chip, t, d))
                out.push_back(e);
        }
    return out;
}

std::vector<Pipe> pipes_for(Chip chip, CoreType t, bool with_s) {
    static constexpr Pipe kPipes[] = {Pipe::S,    Pipe::V,    Pipe::M,  Pipe::MTE1,
                                      Pipe::MTE2, Pipe::MTE3, Pipe::FIX};
    std::vector<Pipe> out;
    for (Pipe p : kPipes)
        if ((with_s || p != Pipe::S) && explore::core_has_pipe(chip, t, p)) out.push_back(p);
    return out;
}

}  // namespace

explore::Program decode_sync_program(const uint8_t* data, size_t size) {
    Reader in(data, size);
    const int head = in.pick(256);
    const Chip chip = head & 1 ? Chip::Ascend950 : Chip::AtlasA2;
    const int shape = (head >> 1) & 3;  // 0: one AIV; 1: two AIVs; 2, 3: mix, one block
    const bool mix = shape >= 2;
    explore::ProgramBuilder b(chip, mix, shape == 1 ? 2 : 1);
    const explore::Topology& t = b.program().topo;
    const int ncores = static_cast<int>(t.cores.size());
    const int gm[2] = {b.gm(kBytes, "G0"), b.gm(kBytes, "G1")};
    std::vector<int> local;
    local.reserve(static_cast<size_t>(ncores));
    for (int c = 0; c < ncores; ++c) local.push_back(b.local(c, kBytes));

    auto block = [&](int mem) {
        uint32_t o = 32u * static_cast<uint32_t>(in.pick(4));
        return Range{mem, o, o + 32};
    };
    auto word = [&](int mem) {
        uint32_t o = 32u * static_cast<uint32_t>(in.pick(4));
        return Range{mem, o, o + 4};
    };
    std::vector<int> count(static_cast<size_t>(ncores), 0);
    for (int n = 0; n < kMaxOps && in.more();) {
        const int c = in.pick(ncores);
        if (count[static_cast<size_t>(c)] >= kMaxOpsPerCore) continue;
        const CoreType type = t.cores[static_cast<size_t>(c)].type;
        const bool aiv = type == CoreType::AIV;
        const int loc = local[static_cast<size_t>(c)];
        const int before = static_cast<int>(b.program().cores[static_cast<size_t>(c)].size());
        switch (in.pick(mix ? 11 : 9)) {
            case 0:
            case 1: {  // operands are read in a fixed order (argument evaluation order is unspecified)
                Range l = block(loc);
                Range g = block(gm[in.pick(2)]);
                if (aiv && in.pick(2))
                    b.copy_out(c, g, l);
                else
                    b.copy_in(c, l, g);
                break;
            }
            case 2:
                if (!aiv) {
                    b.scalar_read(c, word(gm[in.pick(2)]));
                } else {
                    Range d = block(loc);
                    Range a = block(loc);
                    Range x = in.pick(2) ? block(loc) : Range{};
                    b.vec(c, d, a, x);
                }
                break;
            case 3: {
                bool to_gm = !aiv || in.pick(2);
                b.scalar_write(c, word(to_gm ? gm[in.pick(2)] : loc));
                break;
            }
            case 4: {
                bool from_gm = !aiv || in.pick(2);
                b.scalar_read(c, word(from_gm ? gm[in.pick(2)] : loc));
                break;
            }
            case 5:
            case 6:
            case 7: {  // SetFlag, WaitFlag, or a set immediately followed by its wait
                auto evs = events_for(chip, type);
                Event e = evs[static_cast<size_t>(in.pick(static_cast<int>(evs.size())))];
                int id = in.pick(8);
                int kind = in.pick(3);
                if (kind != 1) b.set(c, e.src, e.dst, id);
                bool room = count[static_cast<size_t>(c)] + 1 < kMaxOpsPerCore && n + 1 < kMaxOps;
                if (kind == 1 || (kind == 2 && room)) b.wait(c, e.src, e.dst, id);
                break;
            }
            case 8: {
                auto ps = pipes_for(chip, type, false);
                ps.push_back(Pipe::ALL);
                b.barrier(c, ps[static_cast<size_t>(in.pick(static_cast<int>(ps.size())))]);
                break;
            }
            default: {  // cross-core set or wait (mix launches only)
                std::vector<int> modes = aiv ? std::vector<int>{0, 1, 2} : std::vector<int>{0, 2};
                if (chip == Chip::Ascend950) modes.push_back(4);
                int mode = modes[static_cast<size_t>(in.pick(static_cast<int>(modes.size())))];
                auto ps = pipes_for(chip, type, mode == 4);
                Pipe p = ps[static_cast<size_t>(in.pick(static_cast<int>(ps.size())))];
                int flag = in.pick(4);
                if (mode == 4 && !aiv && in.pick(2)) flag += 16;
                if (in.pick(2))
                    b.cross_set(c, mode, p, flag);
                else
                    b.cross_wait(c, mode, p, flag);
            }
        }
        int added = static_cast<int>(b.program().cores[static_cast<size_t>(c)].size()) - before;
        count[static_cast<size_t>(c)] += added;
        n += added;
    }
    return b.program();
}

std::string describe_program(const explore::Program& p) {
    std::string s = fmt::format("{} {} block_dim {}\n", explore::chip_name(p.topo.chip),
                                p.topo.mix ? "mix" : "AIV-only", p.topo.block_dim);
    for (int id = 0; id < p.op_count(); ++id) {
        auto [c, i] = p.op_at(id);
        const explore::Op& op = p.cores[static_cast<size_t>(c)][static_cast<size_t>(i)];
        std::string ranges;
        for (const explore::Range* r : {&op.dst, &op.src0, &op.src1})
            if (r->mem >= 0)
                ranges +=
                    fmt::format(" {}[{},{})", p.mems[static_cast<size_t>(r->mem)].name, r->begin, r->end);
        s += fmt::format("  #{} {}{}\n", id, explore::describe(p, id), ranges);
    }
    return s;
}

}  // namespace evg::fuzz

namespace evg::fuzz {

namespace {

int index_of_block(const explore::Range& r, uint32_t size) {
    if (r.begin % 32 != 0 || r.begin / 32 >= 4 || r.end - r.begin != size)
        throw explore::Error(
            fmt::format("range [{}, {}) is not a {}-byte operand at a 32-byte block", r.begin, r.end, size));
    return static_cast<int>(r.begin / 32);
}

template <class T>
int index_in(const std::vector<T>& v, const T& x, const char* what) {
    for (size_t i = 0; i < v.size(); ++i)
        if (v[i] == x) return static_cast<int>(i);
    throw explore::Error(fmt::format("the decoder cannot produce this {}", what));
}

}  // namespace

std::vector<uint8_t> encode_sync_program(const explore::Program& p) {
    const explore::Topology& t = p.topo;
    int shape = t.mix ? 2 : (t.block_dim == 2 ? 1 : 0);
    if ((t.mix && t.block_dim != 1) || (!t.mix && t.block_dim > 2))
        throw explore::Error("the decoder makes AIV-only launches of 1-2 AIVs and mix launches of one block");
    std::vector<uint8_t> out{static_cast<uint8_t>((t.chip == Chip::Ascend950 ? 1 : 0) | shape << 1)};
    auto gm_index = [&](const Range& r) {
        const auto& m = p.mems.at(static_cast<size_t>(r.mem));
        if (m.owner >= 0) throw explore::Error("expected a GM buffer");
        return m.name == "G1" ? 1 : 0;
    };
    auto is_gm = [&](const Range& r) { return p.mems.at(static_cast<size_t>(r.mem)).owner < 0; };
    auto put = [&](int v) { out.push_back(static_cast<uint8_t>(v)); };
    for (size_t ci = 0; ci < p.cores.size(); ++ci) {
        const CoreType type = t.cores[ci].type;
        const bool aiv = type == CoreType::AIV;
        for (const explore::Op& op : p.cores[ci]) {
            put(static_cast<int>(ci));
            switch (op.kind) {
                case explore::OpKind::copy_in:
                case explore::OpKind::copy_out: {
                    bool out_op = op.kind == explore::OpKind::copy_out;
                    const Range& l = out_op ? op.src0 : op.dst;
                    const Range& g = out_op ? op.dst : op.src0;
                    put(0);
                    put(index_of_block(l, 32));
                    put(gm_index(g));
                    put(index_of_block(g, 32));
                    if (aiv) put(out_op ? 1 : 0);
                    break;
                }
                case explore::OpKind::vec:
                    put(2);
                    put(index_of_block(op.dst, 32));
                    put(index_of_block(op.src0, 32));
                    put(op.src1.mem >= 0 ? 1 : 0);
                    if (op.src1.mem >= 0) put(index_of_block(op.src1, 32));
                    break;
                case explore::OpKind::scalar_write:
                case explore::OpKind::scalar_read: {
                    bool w = op.kind == explore::OpKind::scalar_write;
                    const Range& r = w ? op.dst : op.src0;
                    if (!aiv && !w) {  // the AIC's scalar read is kind 2
                        put(2);
                    } else {
                        put(w ? 3 : 4);
                        if (aiv) put(is_gm(r) ? 1 : 0);
                    }
                    if (is_gm(r)) put(gm_index(r));
                    put(index_of_block(r, 4));
                    break;
                }
                case explore::OpKind::set_flag:
                case explore::OpKind::wait_flag:
                    put(5);
                    put(index_in(events_for(t.chip, type), op.event, "event"));
                    put(op.id);
                    put(op.kind == explore::OpKind::set_flag ? 0 : 1);
                    break;
                case explore::OpKind::barrier: {
                    auto ps = pipes_for(t.chip, type, false);
                    ps.push_back(Pipe::ALL);
                    put(8);
                    put(index_in(ps, op.pipe, "barrier pipe"));
                    break;
                }
                case explore::OpKind::cross_set:
                case explore::OpKind::cross_wait: {
                    std::vector<int> modes = aiv ? std::vector<int>{0, 1, 2} : std::vector<int>{0, 2};
                    if (t.chip == Chip::Ascend950) modes.push_back(4);
                    put(9);
                    put(index_in(modes, op.mode, "cross-core mode"));
                    put(index_in(pipes_for(t.chip, type, op.mode == 4), op.pipe, "cross-core pipe"));
                    put(op.flag % 16 % 4);
                    if (op.flag % 16 >= 4)
                        throw explore::Error("the decoder uses cross-core flags 0-3 (16-19)");
                    if (op.mode == 4 && !aiv) put(op.flag >= 16 ? 1 : 0);
                    put(op.kind == explore::OpKind::cross_set ? 1 : 0);
                    break;
                }
            }
        }
    }
    return out;
}

}  // namespace evg::fuzz
