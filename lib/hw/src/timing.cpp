// The cycle model over a launch's trace (timing.hpp, docs/cycle-model.md).
#include "evg/hw/timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <unordered_map>

#include "evg/hw/cost_table.hpp"
#include "evg/hw/sync_mutation.hpp"
#include "evg/thousands.hpp"

namespace evg::hw::timing {

namespace {

constexpr int kS = pipe_slot(Pipe::S);

// Whether the scalar unit executes the entry itself (and, for a blocking one, waits for it).
bool on_scalar(const TraceEntry& e) {
    return e.blocking || e.pipe == Pipe::S;
}

bool is_wait(const TraceEntry& e) {
    return e.kind == InstrKind::wait_flag || e.kind == InstrKind::cross_wait;
}

int cost_column(DType t) {
    switch (t) {
        case DType::f16:
        case DType::bf16:
            return 0;
        case DType::f32:
            return 1;
        default:
            return 2;
    }
}

uint64_t ceil_cycles(double c) {
    return c <= 0 ? 0 : static_cast<uint64_t>(std::ceil(c - 1e-9));
}

class Simulator {
  public:
    Simulator(const Trace& trace, const Launch& launch)
        : trace_(trace), launch_(launch), costs_(cost_table(launch.arch)) {}

    Timeline run();

  private:
    const Trace& trace_;
    Launch launch_;
    const CostTable& costs_;
    Timeline out_;

    struct CoreState {
        std::vector<uint32_t> stream;  // entry indices in program order
        size_t next = 0;               // next to issue
        uint64_t scalar = 0;           // when the scalar unit can issue the next one
        uint32_t last_issued = 0;      // entry id issued last (the bound of an issue-bound start)
        std::array<std::vector<uint32_t>, kPipeSlots> queue;  // pipe entries in order
        std::array<size_t, kPipeSlots> head{};                // next to start
        std::array<size_t, kPipeSlots> issued{};              // entries handed to the queue so far
        std::array<uint64_t, kPipeSlots> free{};              // when the pipe finishes its last started entry
        std::array<uint32_t, kPipeSlots> last{};              // entry id started last on the pipe
        std::array<bool, kPipeSlots> vector_work{};  // the last V entry was vector work (barrier drain)
    };
    std::vector<CoreState> cores_;
    std::unordered_map<uint32_t, const VectorCost*> vector_by_op_;

    uint64_t cost(size_t i, Slice& s, CoreState& c);
    uint64_t dma_cost(size_t i, Pipe pipe, Slice& s);
    uint64_t vector_cost(size_t i, const TraceEntry& e, Slice& s);
    uint64_t cube_cost(size_t i, const TraceEntry& e);
    // The end of what entry i waits for, or false while that is not yet timed.
    bool dependency(const TraceEntry& e, const CoreState& c, uint64_t& ready, uint32_t& after) const;
    // Times slice i, whose start is set to what its issue and pipe allow: a later `dep` (the end of what it
    // waits for, entry `dep_after`) makes the difference its stall.
    void finish(size_t i, CoreState& c, uint64_t dep, uint32_t dep_after);
    bool step_scalar(CoreState& c);
    bool step_pipe(CoreState& c, int slot);
    void ub_samples();
    void summarise();
};

uint64_t Simulator::dma_cost(size_t i, Pipe pipe, Slice& s) {
    const auto accs = trace_.accesses(i);
    uint64_t read = 0, written = 0;
    bool have_src = false, have_dst = false;
    MemKind src = MemKind::GM, dst = MemKind::GM;
    for (const TraceAccess& a : accs) {
        if (a.write) {
            written += a.end - a.begin;
            if (!have_dst) dst = a.kind, have_dst = true;
        } else {
            read += a.end - a.begin;
            if (!have_src) src = a.kind, have_src = true;
        }
    }
    DataPath path = DataPath::gm_to_ub;
    if (!(have_src && have_dst && data_path_between(src, dst, path))) {
        switch (pipe) {  // no access records: the pipe's usual path
            case Pipe::MTE3:
                path = DataPath::ub_to_gm;
                break;
            case Pipe::MTE1:
                path = DataPath::l1_to_l0a;
                break;
            case Pipe::FIX:
                path = DataPath::l0c_to_gm;
                break;
            case Pipe::V:
                path = DataPath::ub_to_ub;
                break;
            default:
                path = DataPath::gm_to_ub;
                break;
        }
    }
    // Bytes read, except out of L0C: the fixpipe's rate is quoted in bytes of its (converted) output.
    s.bytes = have_src && !(src == MemKind::L0C && have_dst) ? read : written;
    const PathCost& pc = costs_.path(path);
    const double bw = pc.bytes_per_cycle.value > 0 ? pc.bytes_per_cycle.value : 1.0;
    return ceil_cycles(pc.start_latency.value + static_cast<double>(s.bytes) / bw);
}

uint64_t Simulator::vector_cost(size_t i, const TraceEntry& e, Slice& s) {
    auto it = vector_by_op_.find(e.op_site);
    if (it == vector_by_op_.end()) it = vector_by_op_.emplace(e.op_site, costs_.vector_cost(e.op())).first;
    const VectorCost* v = it->second;
    if (!v) {
        // Not a vector instruction of the table: a UB -> UB copy on the V pipe, or an unknown one charged as
        // Add.
        const auto accs = trace_.accesses(i);
        const bool copy =
            std::any_of(accs.begin(), accs.end(), [](const TraceAccess& a) { return !a.write; }) &&
            e.op().starts_with("DataCopy");
        if (copy) return dma_cost(i, Pipe::V, s);
        v = costs_.vector_cost("Add");
    }
    uint64_t widest = 0;
    for (const TraceAccess& a : trace_.accesses(i)) widest = std::max(widest, a.end - a.begin);
    s.bytes = widest;
    const auto rep = static_cast<uint64_t>(costs_.repeat_bytes.value);
    s.repeats = e.repeats ? e.repeats : static_cast<uint32_t>((widest + rep - 1) / rep);
    double startup = 0, per = 0;
    switch (cost_column(e.dtype)) {
        case 0:
            startup = v->f16_startup, per = v->f16_per_repeat;
            break;
        case 1:
            startup = v->f32_startup, per = v->f32_per_repeat;
            break;
        default:
            startup = v->int_startup, per = v->int_per_repeat;
            break;
    }
    return ceil_cycles(startup + per * s.repeats);
}

uint64_t Simulator::cube_cost(size_t i, const TraceEntry& e) {
    const auto es = static_cast<double>(dtype_size(e.dtype));
    std::vector<double> reads;
    double c_elems = 0;
    for (const TraceAccess& a : trace_.accesses(i)) {
        if (a.write)
            c_elems = static_cast<double>(a.end - a.begin) / 4.0;
        else if (a.kind == MemKind::L0A || a.kind == MemKind::L0B)
            reads.push_back(static_cast<double>(a.end - a.begin) / es);
    }
    double macs = 0;
    // A is m x k, B is k x n and C is m x n: their element counts multiply to (m n k)^2.
    if (reads.size() >= 2 && c_elems > 0) macs = std::sqrt(reads[0] * reads[1] * c_elems);
    const double rate = e.dtype == DType::i8    ? costs_.cube_macs_i8.value
                        : e.dtype == DType::f32 ? costs_.cube_macs_f32.value
                                                : costs_.cube_macs_f16.value;
    return ceil_cycles(costs_.cube_startup.value + std::round(macs) / rate);
}

uint64_t Simulator::cost(size_t i, Slice& s, CoreState& c) {
    const TraceEntry& e = trace_[i];
    const int slot = pipe_slot(e.pipe);
    switch (e.kind) {
        case InstrKind::set_flag:
            return ceil_cycles(costs_.set_flag.value);
        case InstrKind::wait_flag:
        case InstrKind::cross_wait:
            return ceil_cycles(costs_.wait_flag.value);
        case InstrKind::cross_set:
            return ceil_cycles(costs_.cross_set.value);
        case InstrKind::barrier:
            if (e.barrier_pipe == Pipe::V && c.vector_work[pipe_slot(Pipe::V)])
                return ceil_cycles(costs_.barrier_v.value);
            return ceil_cycles(costs_.barrier_other.value);
        case InstrKind::plain:
            break;
    }
    if (on_scalar(e)) return ceil_cycles(costs_.scalar_op.value);
    if (trace_.accesses(i).empty()) {
        out_.missing_accesses = true;
        if (slot == pipe_slot(Pipe::V)) {
            const VectorCost* v = costs_.vector_cost(e.op());
            return ceil_cycles(v ? v->f32_startup : 1);
        }
        return ceil_cycles(e.pipe == Pipe::M ? costs_.cube_startup.value : 1);
    }
    switch (e.pipe) {
        case Pipe::V:
            return vector_cost(i, e, s);
        case Pipe::M:
            return cube_cost(i, e);
        default:
            return dma_cost(i, e.pipe, s);
    }
}

bool Simulator::dependency(const TraceEntry& e, const CoreState& c, uint64_t& ready, uint32_t& after) const {
    ready = 0;
    after = 0;
    if (is_wait(e)) {
        if (e.matched == 0 || e.matched > trace_.size()) return false;
        const Slice& set = out_.slices[e.matched - 1];
        if (!set.timed) return false;
        ready = set.end + (e.kind == InstrKind::cross_wait ? ceil_cycles(costs_.cross_latency.value) : 0);
        after = e.matched;
        return true;
    }
    if (e.kind == InstrKind::barrier && e.barrier_pipe == Pipe::ALL) {
        // PipeBarrier<PIPE_ALL>: every instruction this core issued before it has completed.
        for (int p = 0; p < kPipeSlots; ++p) {
            if (p == kS) continue;
            if (c.head[static_cast<size_t>(p)] < c.issued[static_cast<size_t>(p)]) return false;
            if (c.free[static_cast<size_t>(p)] > ready) {
                ready = c.free[static_cast<size_t>(p)];
                after = c.last[static_cast<size_t>(p)];
            }
        }
        return true;
    }
    return true;
}

void Simulator::finish(size_t i, CoreState& c, uint64_t dep, uint32_t dep_after) {
    Slice& s = out_.slices[i];
    if (dep > s.start) {
        s.stall = dep - s.start;
        s.bound = Bound::flag;
        s.after = dep_after;
    }
    s.end = s.start + s.stall + cost(i, s, c);
    s.timed = true;
}

bool Simulator::step_scalar(CoreState& c) {
    bool progress = false;
    while (c.next < c.stream.size()) {
        const uint32_t i = c.stream[c.next];
        const TraceEntry& e = trace_[i];
        Slice& s = out_.slices[i];
        if (!on_scalar(e)) {
            s.issue = c.scalar;
            s.after = c.last_issued;  // what bounds its start if its pipe and flag do not
            c.queue[static_cast<size_t>(pipe_slot(e.pipe))].push_back(i);
            ++c.issued[static_cast<size_t>(pipe_slot(e.pipe))];
            c.scalar += ceil_cycles(costs_.scalar_issue.value);
            c.last_issued = e.id;
            ++c.next;
            progress = true;
            continue;
        }
        uint64_t dep = 0;
        uint32_t dep_after = 0;
        if (!dependency(e, c, dep, dep_after)) break;
        s.issue = c.scalar;
        s.start = c.scalar;
        s.after = c.last_issued;
        s.bound = Bound::issue;
        finish(i, c, dep, dep_after);
        c.scalar = s.end;
        c.last_issued = e.id;
        ++c.next;
        progress = true;
    }
    return progress;
}

bool Simulator::step_pipe(CoreState& c, int slot) {
    bool progress = false;
    const auto p = static_cast<size_t>(slot);
    while (c.head[p] < c.queue[p].size()) {
        const uint32_t i = c.queue[p][c.head[p]];
        const TraceEntry& e = trace_[i];
        uint64_t dep = 0;
        uint32_t dep_after = 0;
        if (!dependency(e, c, dep, dep_after)) break;
        Slice& s = out_.slices[i];
        s.start = s.issue;
        s.bound = Bound::issue;
        if (c.free[p] > s.start) {
            s.start = c.free[p];
            s.bound = Bound::pipe;
            s.after = c.last[p];
        }
        finish(i, c, dep, dep_after);
        c.free[p] = s.end;
        c.last[p] = e.id;
        c.vector_work[p] = e.kind == InstrKind::plain;
        ++c.head[p];
        progress = true;
    }
    return progress;
}

Timeline Simulator::run() {
    out_.launch = launch_;
    out_.slices.resize(trace_.size());
    uint16_t max_core = 0;
    for (const TraceEntry& e : trace_) max_core = std::max(max_core, e.core);
    cores_.resize(trace_.empty() ? 0 : static_cast<size_t>(max_core) + 1);
    for (size_t i = 0; i < trace_.size(); ++i)
        cores_[trace_[i].core].stream.push_back(static_cast<uint32_t>(i));
    // Issue-bound starts name the entry issued before (the scalar unit's previous step).
    for (bool progress = true; progress;) {
        progress = false;
        for (CoreState& c : cores_) {
            progress |= step_scalar(c);
            for (int p = 0; p < kPipeSlots; ++p)
                if (p != kS) progress |= step_pipe(c, p);
        }
    }
    for (const Slice& s : out_.slices) out_.complete &= s.timed;
    for (size_t i = 0; i < trace_.size(); ++i) {
        const TraceEntry& e = trace_[i];
        if (!is_wait(e) || e.matched == 0 || e.matched > trace_.size()) continue;
        if (out_.slices[i].timed && out_.slices[e.matched - 1].timed)
            out_.flows.push_back({e.matched, e.id, e.kind == InstrKind::cross_wait});
    }
    ub_samples();
    summarise();
    return std::move(out_);
}

// UB bytes holding a value still to be read, in 32-byte blocks (the UB's allocation unit): a block is live
// from the end of the write that filled it to the end of the last read of that value.
void Simulator::ub_samples() {
    out_.ub.assign(cores_.size(), {});
    constexpr uint64_t kBlock = 32;
    struct Block {
        uint64_t written = 0, read = 0;  // end of the write; end of the latest read of its value (0: none)
        bool live = false;
    };
    std::vector<std::unordered_map<uint32_t, std::vector<Block>>> mems(cores_.size());
    std::vector<std::vector<std::pair<uint64_t, int64_t>>> deltas(cores_.size());
    // Closes the value of blocks [b0, b1) (a write replaces it, or the launch ends), merging runs of blocks
    // that share their interval.
    auto close = [&](std::vector<Block>& blocks, uint64_t b0, uint64_t b1,
                     std::vector<std::pair<uint64_t, int64_t>>& d) {
        uint64_t run_t0 = 0, run_t1 = 0;
        int64_t run = 0;
        auto flush = [&] {
            if (run > 0 && run_t1 > run_t0) {
                d.emplace_back(run_t0, run * static_cast<int64_t>(kBlock));
                d.emplace_back(run_t1, -run * static_cast<int64_t>(kBlock));
            }
            run = 0;
        };
        for (uint64_t b = b0; b < b1; ++b) {
            Block& k = blocks[b];
            if (!k.live || k.read <= k.written) {
                k.live = false;
                continue;
            }
            if (run > 0 && (k.written != run_t0 || k.read != run_t1)) flush();
            if (run == 0) run_t0 = k.written, run_t1 = k.read;
            ++run;
            k.live = false;
        }
        flush();
    };
    for (size_t i = 0; i < trace_.size(); ++i) {
        const Slice& s = out_.slices[i];
        if (!s.timed) continue;
        const uint16_t core = trace_[i].core;
        for (const TraceAccess& a : trace_.accesses(i)) {
            if (a.kind != MemKind::UB || a.end <= a.begin) continue;
            auto& blocks = mems[core][a.mem];
            const uint64_t b0 = a.begin / kBlock, b1 = (a.end + kBlock - 1) / kBlock;
            if (blocks.size() < b1) blocks.resize(b1);
            if (!a.write) {
                for (uint64_t b = b0; b < b1; ++b) blocks[b].read = std::max(blocks[b].read, s.end);
                continue;
            }
            close(blocks, b0, b1, deltas[core]);
            for (uint64_t b = b0; b < b1; ++b) blocks[b] = {s.end, 0, true};
        }
    }
    for (size_t core = 0; core < cores_.size(); ++core) {
        for (auto& [mem, blocks] : mems[core]) close(blocks, 0, blocks.size(), deltas[core]);
        auto& d = deltas[core];
        if (d.empty()) continue;
        std::sort(d.begin(), d.end());
        int64_t level = 0;
        auto& samples = out_.ub[core];
        samples.push_back({0, 0});
        for (size_t k = 0; k < d.size();) {
            const uint64_t t = d[k].first;
            for (; k < d.size() && d[k].first == t; ++k) level += d[k].second;
            samples.push_back({t, static_cast<uint64_t>(std::max<int64_t>(level, 0))});
        }
    }
}

void Simulator::summarise() {
    Summary& sum = out_.summary;
    sum.clock_ghz = costs_.clock_ghz.value;
    for (const Slice& s : out_.slices)
        if (s.timed) sum.total = std::max(sum.total, s.end);
    std::map<std::pair<uint16_t, int>, PipeTime> pipes;
    std::map<std::pair<uint16_t, std::string>, FlagStall> stalls;
    for (size_t i = 0; i < trace_.size(); ++i) {
        const Slice& s = out_.slices[i];
        if (!s.timed) continue;
        const TraceEntry& e = trace_[i];
        const int slot = on_scalar(e) ? kS : pipe_slot(e.pipe);
        PipeTime& pt = pipes[{e.core, slot}];
        pt.core = e.core;
        pt.pipe = slot_pipe(slot);
        ++pt.instructions;
        pt.busy += s.end - s.start - s.stall;
        pt.stall += s.stall;
        if (is_wait(e)) {
            FlagStall& f = stalls[{e.core, std::string(e.op())}];
            f.core = e.core;
            f.flag = std::string(e.op());
            ++f.waits;
            f.stall += s.stall;
        }
    }
    for (auto& [key, pt] : pipes) {
        pt.idle = sum.total - std::min(sum.total, pt.busy + pt.stall);
        sum.pipes.push_back(pt);
        if (pt.pipe != Pipe::S && pt.busy > sum.roofline) {
            sum.roofline = pt.busy;
            sum.roofline_core = pt.core;
            sum.roofline_pipe = pt.pipe;
        }
    }
    sum.roofline_ratio =
        sum.roofline ? static_cast<double>(sum.total) / static_cast<double>(sum.roofline) : 0;
    for (auto& [key, f] : stalls)
        if (f.stall > 0) sum.flag_stalls.push_back(f);
    std::stable_sort(sum.flag_stalls.begin(), sum.flag_stalls.end(),
                     [](const FlagStall& a, const FlagStall& b) { return a.stall > b.stall; });

    // MTE2 / V / MTE3 overlap on the AIVs: a sweep over each core's busy intervals.
    std::vector<std::vector<std::pair<uint64_t, int>>> events(cores_.size());
    for (size_t i = 0; i < trace_.size(); ++i) {
        const Slice& s = out_.slices[i];
        const TraceEntry& e = trace_[i];
        if (!s.timed || on_scalar(e) || !launch_.is_aiv(e.core)) continue;
        if (e.pipe != Pipe::MTE2 && e.pipe != Pipe::V && e.pipe != Pipe::MTE3) continue;
        const uint64_t b = s.start + s.stall;
        if (s.end <= b) continue;
        sum.mte_v_busy_sum += s.end - b;
        events[e.core].emplace_back(b, 1);
        events[e.core].emplace_back(s.end, -1);
    }
    for (auto& ev : events) {
        std::sort(ev.begin(), ev.end());
        int level = 0;
        uint64_t prev = 0, core_union = 0;
        for (const auto& [t, d] : ev) {
            if (level >= 1) core_union += t - prev;
            if (level >= 2) sum.mte_v_two_or_more += t - prev;
            level += d;
            prev = t;
        }
        sum.mte_v_union += core_union;
        sum.mte_v_union_max = std::max(sum.mte_v_union_max, core_union);
    }
    sum.overlap =
        sum.mte_v_union ? static_cast<double>(sum.mte_v_busy_sum) / static_cast<double>(sum.mte_v_union) : 0;

    // Critical path: back from the last-ending instruction, through what bound each start. Its segments tile
    // [0, total): an instruction's execution, a cross-core flag's latency, or the scalar unit issuing.
    uint32_t last = 0;
    for (size_t i = 0; i < trace_.size(); ++i)
        if (out_.slices[i].timed && (last == 0 || out_.slices[i].end > out_.slices[last - 1].end))
            last = static_cast<uint32_t>(i + 1);
    std::vector<bool> seen(trace_.size() + 1, false);
    std::vector<uint32_t> prev_in_stream(trace_.size() + 1, 0);
    for (const CoreState& c : cores_)
        for (size_t k = 1; k < c.stream.size(); ++k) prev_in_stream[c.stream[k] + 1] = c.stream[k - 1] + 1;
    const uint64_t issue_cost = ceil_cycles(costs_.scalar_issue.value);
    for (uint32_t id = last; id != 0 && !seen[id];) {
        seen[id] = true;
        const Slice& s = out_.slices[id - 1];
        const TraceEntry& e = trace_[id - 1];
        sum.critical_path.push_back(id);
        sum.critical_busy[on_scalar(e) ? kS : pipe_slot(e.pipe)] += s.end - s.start - s.stall;
        if (s.bound == Bound::flag && s.after != 0) {
            sum.critical_latency += s.start + s.stall - out_.slices[s.after - 1].end;
            id = s.after;
            continue;
        }
        if (s.bound == Bound::pipe) {
            id = s.after;
            continue;
        }
        // Issue-bound: back along the scalar unit's stream to the blocking instruction (or the launch start)
        // that released it, one issue slot per instruction handed to a pipe on the way.
        uint32_t p = prev_in_stream[id];
        while (p != 0 && !on_scalar(trace_[p - 1])) {
            sum.critical_issue += issue_cost;
            p = prev_in_stream[p];
        }
        id = p;
    }
    std::reverse(sum.critical_path.begin(), sum.critical_path.end());
}

}  // namespace

bool Launch::is_aiv(int core) const {
    return type != KernelType::aic_only && core >= aic_count(type, block_dim);
}

std::string Launch::core_name(int core) const {
    return core_short_name(type, block_dim, core);
}

Timeline simulate(const Trace& trace, const Launch& launch) {
    return Simulator(trace, launch).run();
}

}  // namespace evg::hw::timing
