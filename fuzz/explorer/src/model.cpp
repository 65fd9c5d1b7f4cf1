#include "evg/explore/model.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace evg::explore {

std::string_view pipe_name(Pipe p) {
    static constexpr std::string_view kNames[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX", "ALL"};
    return kNames[static_cast<int>(p)];
}

std::string_view chip_name(Chip c) {
    return c == Chip::AtlasA2 ? "AtlasA2" : "Ascend950";
}

std::string event_name(Event e) {
    return fmt::format("{}_{}", pipe_name(e.src), pipe_name(e.dst));
}

bool pipe_keeps_order(Chip c, Pipe p) {
    return p == Pipe::S || (p == Pipe::V && c == Chip::Ascend950);
}

bool cross_wait_blocks_scalar(Chip c) {
    return c == Chip::AtlasA2;
}

bool core_has_pipe(Chip c, CoreType t, Pipe p) {
    using enum Pipe;
    if (t == CoreType::AIV) return p == S || p == V || p == MTE2 || p == MTE3;
    if (p == MTE3) return c == Chip::AtlasA2;
    return p == S || p == M || p == MTE1 || p == MTE2 || p == FIX;
}

bool event_valid(CoreType t, Event e) {
    using enum Pipe;
    static constexpr Event kAiv[] = {{MTE2, V},    {V, MTE2},    {MTE3, V}, {V, MTE3}, {V, V},
                                     {MTE3, MTE2}, {MTE2, MTE3}, {S, V},    {V, S},    {S, MTE2},
                                     {MTE2, S},    {S, MTE3},    {MTE3, S}};
    static constexpr Event kAic[] = {{MTE2, MTE1}, {MTE1, MTE2}, {MTE1, M},   {M, MTE1}, {MTE3, MTE1},
                                     {MTE1, MTE3}, {MTE2, M},    {M, MTE2},   {M, FIX},  {FIX, M},
                                     {MTE3, MTE2}, {MTE2, MTE3}, {S, MTE2},   {MTE2, S}, {S, MTE3},
                                     {MTE3, S},    {MTE2, FIX},  {FIX, MTE2}, {FIX, S},  {M, S},
                                     {FIX, MTE3},  {MTE1, FIX},  {FIX, MTE1}, {FIX, FIX}};
    if (t == CoreType::AIV) return std::find(std::begin(kAiv), std::end(kAiv), e) != std::end(kAiv);
    return std::find(std::begin(kAic), std::end(kAic), e) != std::end(kAic);
}

int Topology::aic(int block) const {
    if (!mix || block < 0 || block >= block_dim) return -1;
    return block;
}

int Topology::aiv(int block, int sub) const {
    if (block < 0 || block >= block_dim) return -1;
    if (!mix) return sub == 0 ? block : -1;
    if (sub < 0 || sub > 1) return -1;
    return block_dim + 2 * block + sub;
}

std::string Topology::core_name(int core) const {
    if (core < 0 || core >= static_cast<int>(cores.size())) return fmt::format("core{}", core);
    const CoreId& c = cores[static_cast<size_t>(core)];
    if (c.type == CoreType::AIC) return fmt::format("AIC{}", c.block);
    if (mix) return fmt::format("AIV{}.{}", c.block, c.sub);
    return fmt::format("AIV{}", c.block);
}

Topology make_topology(Chip chip, bool mix, int block_dim) {
    Topology t;
    t.chip = chip;
    t.mix = mix;
    t.block_dim = block_dim;
    if (mix) {
        for (int b = 0; b < block_dim; ++b) t.cores.push_back({CoreType::AIC, b, 0});
        for (int b = 0; b < block_dim; ++b)
            for (int s = 0; s < 2; ++s) t.cores.push_back({CoreType::AIV, b, s});
    } else {
        for (int b = 0; b < block_dim; ++b) t.cores.push_back({CoreType::AIV, b, 0});
    }
    return t;
}

CounterKey wait_counter(int core, int mode, int flag) {
    return {core, mode == 4 ? 4 : 0, flag};
}

CrossEffect cross_effect(const Topology& t, int core, int mode, int flag) {
    CrossEffect e;
    e.mode = mode;
    e.flag = flag;
    const CoreId& me = t.cores[static_cast<size_t>(core)];
    if (mode == 4) {
        if (me.type == CoreType::AIC) {
            int v = t.aiv(me.block, flag < 16 ? 0 : 1);
            if (v >= 0) e.targets.push_back({v, 4, flag % 16});
        } else if (int c = t.aic(me.block); c >= 0) {
            e.targets.push_back({c, 4, flag + 16 * me.sub});
        }
        return e;
    }
    if (mode == 2 && me.type == CoreType::AIC) {
        for (int s = 0; s < 2; ++s)
            if (int v = t.aiv(me.block, s); v >= 0) e.targets.push_back({v, 0, flag});
        return e;
    }
    e.round = true;
    if (mode == 2) {  // AIV side: the AIC's counter rises once both AIVs have set
        e.group = me.block;
        for (int s = 0; s < 2; ++s)
            if (int v = t.aiv(me.block, s); v >= 0) e.members.push_back(v);
        if (int c = t.aic(me.block); c >= 0) e.targets.push_back({c, 0, flag});
        return e;
    }
    if (mode == 1) {
        e.group = me.block;
        for (int s = 0; s < 2; ++s)
            if (int v = t.aiv(me.block, s); v >= 0) e.members.push_back(v);
    } else {
        e.group = static_cast<int>(me.type);
        for (size_t i = 0; i < t.cores.size(); ++i)
            if (t.cores[i].type == me.type) e.members.push_back(static_cast<int>(i));
    }
    for (int m : e.members) e.targets.push_back({m, 0, flag});
    return e;
}

std::string cross_rule(const Topology& t, int core, int mode, Pipe p, int flag) {
    const CoreId& me = t.cores[static_cast<size_t>(core)];
    if (!t.mix) return "cross-core flags need a mix (AIC + AIV) launch";
    if (mode != 0 && mode != 1 && mode != 2 && mode != 4) return fmt::format("mode {} does not exist", mode);
    if (mode == 4 && t.chip != Chip::Ascend950) return "mode 4 exists on Ascend950 only";
    if (mode == 1 && me.type == CoreType::AIC) return "mode 1 is for the AIVs of one AI core";
    if (p == Pipe::ALL) return "pipe ALL is not allowed";
    if (p == Pipe::S && mode != 4) return "pipe S is allowed in mode 4 only";
    if (!core_has_pipe(t.chip, me.type, p)) return fmt::format("the core has no pipe {}", pipe_name(p));
    int max_flag = mode == 4 && me.type == CoreType::AIC ? 31 : kCounterMax;
    if (flag < 0 || flag > max_flag) return fmt::format("flag id {} is outside 0..{}", flag, max_flag);
    return {};
}

std::string_view op_kind_name(OpKind k) {
    static constexpr std::string_view kNames[] = {"copy_in",      "copy_out",  "vec",       "scalar_read",
                                                  "scalar_write", "set_flag",  "wait_flag", "barrier",
                                                  "cross_set",    "cross_wait"};
    return kNames[static_cast<int>(k)];
}

int Program::op_id(int core, int index) const {
    int base = 0;
    for (int c = 0; c < core; ++c) base += static_cast<int>(cores[static_cast<size_t>(c)].size());
    return base + index;
}

std::pair<int, int> Program::op_at(int id) const {
    for (size_t c = 0; c < cores.size(); ++c) {
        if (id < static_cast<int>(cores[c].size())) return {static_cast<int>(c), id};
        id -= static_cast<int>(cores[c].size());
    }
    return {-1, -1};
}

int Program::op_count() const {
    int n = 0;
    for (const auto& c : cores) n += static_cast<int>(c.size());
    return n;
}

std::string describe(const Program& p, int id) {
    auto [c, i] = p.op_at(id);
    if (c < 0) return fmt::format("#{}", id);
    const Op& op = p.cores[static_cast<size_t>(c)][static_cast<size_t>(i)];
    std::string what;
    switch (op.kind) {
        case OpKind::set_flag:
            what = fmt::format("SetFlag<{}>({})", event_name(op.event), op.id);
            break;
        case OpKind::wait_flag:
            what = fmt::format("WaitFlag<{}>({})", event_name(op.event), op.id);
            break;
        case OpKind::barrier:
            what = fmt::format("PipeBarrier<PIPE_{}>", pipe_name(op.pipe));
            break;
        case OpKind::cross_set:
            what = fmt::format("CrossCoreSetFlag<{}, PIPE_{}>({})", op.mode, pipe_name(op.pipe), op.flag);
            break;
        case OpKind::cross_wait:
            what = fmt::format("CrossCoreWaitFlag<{}, PIPE_{}>({})", op.mode, pipe_name(op.pipe), op.flag);
            break;
        default:
            what = std::string(op_kind_name(op.kind));
    }
    return fmt::format("{}#{} {}", p.topo.core_name(c), i, what);
}

namespace {

void check_range(const Program& p, const Range& r, int core, bool want_gm, const std::string& where,
                 const char* role) {
    if (r.mem < 0 || r.mem >= static_cast<int>(p.mems.size()))
        throw Error(fmt::format("{}: {} names memory {}, which does not exist", where, role, r.mem));
    const MemoryDecl& m = p.mems[static_cast<size_t>(r.mem)];
    if (want_gm && m.owner != -1) throw Error(fmt::format("{}: {} must be a GM buffer", where, role));
    if (!want_gm && m.owner != core)
        throw Error(fmt::format("{}: {} must be a local memory of this core", where, role));
    if (r.begin >= r.end || r.end > m.size)
        throw Error(fmt::format("{}: {} [{}, {}) is empty or outside {} ({} B)", where, role, r.begin, r.end,
                                m.name, m.size));
}

}  // namespace

void validate(const Program& p) {
    const Topology& t = p.topo;
    if (t.cores.empty()) throw Error("the program has no cores");
    if (p.cores.size() != t.cores.size())
        throw Error(
            fmt::format("the program lists {} cores; the launch has {}", p.cores.size(), t.cores.size()));
    for (size_t c = 0; c < p.cores.size(); ++c) {
        const CoreId& core = t.cores[c];
        const int ci = static_cast<int>(c);
        if (p.cores[c].size() > 64) throw Error(fmt::format("{} has more than 64 ops", t.core_name(ci)));
        for (size_t i = 0; i < p.cores[c].size(); ++i) {
            const Op& op = p.cores[c][i];
            std::string where = fmt::format("{} op {}", t.core_name(ci), i);
            auto need_pipe = [&](Pipe q) {
                if (!core_has_pipe(t.chip, core.type, q))
                    throw Error(fmt::format("{}: {} has no pipe {} on {}", where, t.core_name(ci),
                                            pipe_name(q), chip_name(t.chip)));
            };
            switch (op.kind) {
                case OpKind::copy_in:
                    check_range(p, op.src0, ci, true, where, "source");
                    check_range(p, op.dst, ci, false, where, "destination");
                    break;
                case OpKind::copy_out:
                    if (core.type != CoreType::AIV) throw Error(where + ": copy_out (UB -> GM) needs an AIV");
                    check_range(p, op.src0, ci, false, where, "source");
                    check_range(p, op.dst, ci, true, where, "destination");
                    break;
                case OpKind::vec:
                    if (core.type != CoreType::AIV) throw Error(where + ": vector ops need an AIV");
                    check_range(p, op.dst, ci, false, where, "destination");
                    check_range(p, op.src0, ci, false, where, "source 0");
                    if (op.src1.mem >= 0) check_range(p, op.src1, ci, false, where, "source 1");
                    break;
                case OpKind::scalar_read: {
                    const Range& r = op.src0;
                    bool gm = r.mem >= 0 && r.mem < static_cast<int>(p.mems.size()) &&
                              p.mems[static_cast<size_t>(r.mem)].owner == -1;
                    check_range(p, r, ci, gm, where, "source");
                    break;
                }
                case OpKind::scalar_write: {
                    const Range& r = op.dst;
                    bool gm = r.mem >= 0 && r.mem < static_cast<int>(p.mems.size()) &&
                              p.mems[static_cast<size_t>(r.mem)].owner == -1;
                    check_range(p, r, ci, gm, where, "destination");
                    break;
                }
                case OpKind::set_flag:
                case OpKind::wait_flag:
                    if (!event_valid(core.type, op.event))
                        throw Error(fmt::format("{}: event {} is not in the event pool of this core type",
                                                where, event_name(op.event)));
                    need_pipe(op.event.src);
                    need_pipe(op.event.dst);
                    if (op.id < 0 || op.id > kMaxEventId)
                        throw Error(
                            fmt::format("{}: event id {} is outside 0..{}", where, op.id, kMaxEventId));
                    break;
                case OpKind::barrier:
                    if (op.pipe == Pipe::S) throw Error(where + ": PipeBarrier<PIPE_S> is not allowed");
                    if (op.pipe != Pipe::ALL) need_pipe(op.pipe);
                    break;
                case OpKind::cross_set:
                case OpKind::cross_wait:
                    if (std::string rule = cross_rule(t, ci, op.mode, op.pipe, op.flag); !rule.empty())
                        throw Error(fmt::format("{}: {}", where, rule));
                    break;
            }
        }
    }
}

Instr instr_of(const Program& p, int core, int index) {
    const Op& op = p.cores[static_cast<size_t>(core)][static_cast<size_t>(index)];
    Instr in;
    in.id = p.op_id(core, index);
    in.core = core;
    auto read = [&](const Range& r) {
        if (r.mem >= 0) in.accesses.push_back({r.mem, r.begin, r.end, false, false});
    };
    auto write = [&](const Range& r) {
        if (r.mem >= 0) in.accesses.push_back({r.mem, r.begin, r.end, true, false});
    };
    switch (op.kind) {
        case OpKind::copy_in:
            in.pipe = Pipe::MTE2;
            read(op.src0);
            write(op.dst);
            break;
        case OpKind::copy_out:
            in.pipe = Pipe::MTE3;
            read(op.src0);
            write(op.dst);
            break;
        case OpKind::vec:
            in.pipe = Pipe::V;
            read(op.src0);
            read(op.src1);
            write(op.dst);
            break;
        case OpKind::scalar_read:
            in.pipe = Pipe::S;
            read(op.src0);
            break;
        case OpKind::scalar_write:
            in.pipe = Pipe::S;
            write(op.dst);
            break;
        case OpKind::set_flag:
            in.kind = Kind::set;
            in.pipe = op.event.src;
            in.event = op.event;
            in.event_id = op.id;
            break;
        case OpKind::wait_flag:
            in.kind = Kind::wait;
            in.pipe = op.event.dst;
            in.event = op.event;
            in.event_id = op.id;
            in.blocking = in.pipe == Pipe::S;
            break;
        case OpKind::barrier:
            in.kind = Kind::barrier;
            in.barrier_pipe = op.pipe;
            in.pipe = op.pipe == Pipe::ALL ? Pipe::S : op.pipe;
            in.blocking = op.pipe == Pipe::ALL;
            break;
        case OpKind::cross_set:
            in.kind = Kind::cross_set;
            in.pipe = op.pipe;
            in.mode = op.mode;
            in.flag = op.flag;
            break;
        case OpKind::cross_wait:
            in.kind = Kind::cross_wait;
            in.mode = op.mode;
            in.flag = op.flag;
            in.blocking = op.pipe == Pipe::S || cross_wait_blocks_scalar(p.topo.chip);
            in.pipe = in.blocking ? Pipe::S : op.pipe;
            break;
    }
    return in;
}

std::string_view finding_kind_name(FindingKind k) {
    static constexpr std::string_view kNames[] = {"race",      "set_twice",    "deadlock",
                                                  "flag_left", "counter_left", "ambiguous"};
    return kNames[static_cast<int>(k)];
}

bool Verdict::has(FindingKind k) const {
    for (const auto& f : findings)
        if (f.kind == k) return true;
    return false;
}

std::vector<const Finding*> Verdict::of(FindingKind k) const {
    std::vector<const Finding*> out;
    for (const auto& f : findings)
        if (f.kind == k) out.push_back(&f);
    return out;
}

std::string Verdict::text() const {
    std::string s;
    for (const auto& f : findings) s += fmt::format("{}: {}\n", finding_kind_name(f.kind), f.message);
    if (findings.empty()) s += "clean\n";
    if (states)
        s += fmt::format("{} states{}\n", states, complete ? "" : " (incomplete: a limit stopped it)");
    else if (!complete)
        s += "incomplete: the attempt cap stopped the decision; the findings above are a best effort\n";
    return s;
}

}  // namespace evg::explore
