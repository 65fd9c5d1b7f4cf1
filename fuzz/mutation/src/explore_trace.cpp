#include "evg/fuzz/explore_trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>

#include "evg/explore/model.hpp"
#include "evg/hw/error.hpp"
#include "evg/hw/sync_mutation.hpp"

namespace evg::fuzz {

namespace {

explore::Pipe pipe_of(hw::Pipe p) {
    switch (p) {
        case hw::Pipe::S:
            return explore::Pipe::S;
        case hw::Pipe::V:
            return explore::Pipe::V;
        case hw::Pipe::M:
            return explore::Pipe::M;
        case hw::Pipe::MTE1:
            return explore::Pipe::MTE1;
        case hw::Pipe::MTE2:
            return explore::Pipe::MTE2;
        case hw::Pipe::MTE3:
            return explore::Pipe::MTE3;
        case hw::Pipe::FIX:
            return explore::Pipe::FIX;
        case hw::Pipe::ALL:
            return explore::Pipe::ALL;
    }
    throw hw::HostError(fmt::format("explore_trace: pipe {} has no explorer pipe", static_cast<int>(p)));
}

explore::Kind kind_of(hw::InstrKind k) {
    switch (k) {
        case hw::InstrKind::plain:
            return explore::Kind::plain;
        case hw::InstrKind::set_flag:
            return explore::Kind::set;
        case hw::InstrKind::wait_flag:
            return explore::Kind::wait;
        case hw::InstrKind::barrier:
            return explore::Kind::barrier;
        case hw::InstrKind::cross_set:
            return explore::Kind::cross_set;
        case hw::InstrKind::cross_wait:
            return explore::Kind::cross_wait;
    }
    return explore::Kind::plain;
}

uint32_t offset32(uint64_t v, const hw::TraceEntry& e) {
    if (v > std::numeric_limits<uint32_t>::max())
        throw hw::HostError(
            fmt::format("explore_trace: instruction {} ({}) touches byte {} beyond 4 GiB of its "
                        "memory, which the explorer cannot represent",
                        e.id, e.op(), v));
    return static_cast<uint32_t>(v);
}

}  // namespace

ExplorerVerdict explore_trace(const hw::Trace& trace, hw::ArchId arch, hw::KernelType type, int block_dim) {
    if (type == hw::KernelType::aic_only)
        throw hw::HostError("explore_trace: AIC-only launches are not modelled by the explorer");
    explore::Run run;
    run.topo = explore::make_topology(
        arch == hw::ArchId::AtlasA2 ? explore::Chip::AtlasA2 : explore::Chip::Ascend950,
        type == hw::KernelType::mix_aic_1_2, block_dim);
    run.instrs.reserve(trace.size());
    std::map<uint32_t, int> mems;                   // Memory::uid -> the explorer's dense memory number
    std::vector<DataInstr> data(trace.size() + 1);  // by entry id
    std::map<int, int> plain_on;                    // core -> plain instructions so far
    for (const hw::TraceEntry& e : trace) {
        if (e.kind == hw::InstrKind::plain && e.id < data.size()) data[e.id] = {e.core, plain_on[e.core]++};
        explore::Instr in;
        if (e.id > static_cast<uint64_t>(std::numeric_limits<int>::max()))
            throw hw::HostError(fmt::format("explore_trace: instruction id {} is too large", e.id));
        in.id = static_cast<int>(e.id);
        in.core = e.core;
        in.pipe = pipe_of(e.pipe);
        in.kind = kind_of(e.kind);
        in.blocking = e.blocking;
        in.after = static_cast<int>(e.after);
        if (e.kind == hw::InstrKind::set_flag || e.kind == hw::InstrKind::wait_flag) {
            in.event = {pipe_of(hw::event_src(e.event)), pipe_of(hw::event_dst(e.event))};
            in.event_id = e.event_id;
        } else if (e.kind == hw::InstrKind::cross_set || e.kind == hw::InstrKind::cross_wait) {
            in.mode = e.cross_mode;
            in.flag = e.cross_flag;
        } else if (e.kind == hw::InstrKind::barrier) {
            in.barrier_pipe = pipe_of(e.barrier_pipe);
        }
        const std::span<const hw::TraceAccess> accesses = trace.accesses_of(e);
        in.accesses.reserve(accesses.size());
        for (const hw::TraceAccess& a : accesses) {
            const auto [it, added] = mems.emplace(a.mem, static_cast<int>(mems.size()));
            (void)added;
            in.accesses.push_back({it->second, offset32(a.begin, e), offset32(a.end, e), a.write, a.atomic});
        }
        run.instrs.push_back(std::move(in));
    }
    const explore::Verdict v = explore::decide(run);
    ExplorerVerdict out;
    for (const explore::Finding& f : v.findings) out.kinds.emplace_back(explore::finding_kind_name(f.kind));
    std::sort(out.kinds.begin(), out.kinds.end());
    out.kinds.erase(std::unique(out.kinds.begin(), out.kinds.end()), out.kinds.end());
    if (!v.findings.empty()) out.first = v.findings.front().message;
    out.complete = v.complete;
    out.reads_known = v.reads_known;
    auto named = [&](int id) { return data.at(static_cast<size_t>(id)); };
    out.reads.reserve(v.reads_from.size());
    for (const explore::ReadFrom& r : v.reads_from) {
        ExplorerRead x{named(r.reader), r.access, r.begin, r.end, {}};
        for (const int w : r.writers) x.writers.push_back(named(w));
        std::sort(x.writers.begin(), x.writers.end());
        out.reads.push_back(std::move(x));
    }
    std::sort(out.reads.begin(), out.reads.end());
    return out;
}

namespace {

// Each core's plain entries, in issue order.
std::map<int, std::vector<const hw::TraceEntry*>> data_instructions(const hw::Trace& t) {
    std::map<int, std::vector<const hw::TraceEntry*>> out;
    for (const hw::TraceEntry& e : t)
        if (e.kind == hw::InstrKind::plain) out[e.core].push_back(&e);
    return out;
}

std::string describe(const std::map<int, std::vector<const hw::TraceEntry*>>& d, const DataInstr& i) {
    const hw::TraceEntry& e = *d.at(i.core).at(static_cast<size_t>(i.n));
    return fmt::format("{}@{} (#{})", e.op(), e.site().str(), e.id);
}

std::string writers_text(const std::map<int, std::vector<const hw::TraceEntry*>>& d,
                         const std::vector<DataInstr>& ws) {
    if (ws.empty()) return "no write of the launch";
    std::string s;
    for (const DataInstr& w : ws) s += (s.empty() ? "" : " + ") + describe(d, w);
    return s;
}

}  // namespace

std::optional<std::string> first_changed_read(const hw::Trace& ref_trace, const ExplorerVerdict& ref,
                                              const hw::Trace& mut_trace, const ExplorerVerdict& mut,
                                              hw::KernelType type, int block_dim) {
    const auto a = data_instructions(ref_trace), b = data_instructions(mut_trace);
    if (a.size() != b.size()) return std::nullopt;
    for (const auto& [core, av] : a) {
        const auto it = b.find(core);
        if (it == b.end() || it->second.size() != av.size()) return std::nullopt;
        for (size_t i = 0; i < av.size(); ++i)
            if (av[i]->op_site != it->second[i]->op_site) return std::nullopt;
    }
    // Both lists are sorted by reader, access and first byte; the first piece where they part names the read.
    const auto& x = ref.reads;
    const auto& y = mut.reads;
    size_t i = 0;
    while (i < x.size() && i < y.size() && x[i] == y[i]) ++i;
    if (i == x.size() && i == y.size()) return std::string();
    const ExplorerRead& r = i < y.size() ? y[i] : x[i];
    const ExplorerRead* before =
        i < x.size() && x[i].reader == r.reader && x[i].access == r.access ? &x[i] : nullptr;
    return fmt::format("{} on {} reads access {} bytes [{}, {}) from {} (unmutated: {}{})",
                       describe(b, r.reader), hw::core_short_name(type, block_dim, r.reader.core), r.access,
                       r.begin, r.end, i < y.size() ? writers_text(b, r.writers) : "nothing listed",
                       before ? fmt::format("bytes [{}, {}) from ", before->begin, before->end) : "",
                       before ? writers_text(a, before->writers) : "no such read");
}

}  // namespace evg::fuzz
