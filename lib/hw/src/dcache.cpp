#include "evg/hw/dcache.hpp"

#include <fmt/format.h>

#include "evg/hw/machine.hpp"

namespace evg::hw {

void DataCache::write(Memory* mem, uint64_t begin, uint64_t end, int core, uint64_t instr) {
    for (auto& d : dirty_)
        if (d.mem == mem && d.core == core && begin <= d.end && end >= d.begin) {
            // Adjacent or overlapping: one range, still named by its first SetValue.
            if (begin < d.begin) d.begin = begin;
            if (end > d.end) d.end = end;
            return;
        }
    dirty_.push_back({mem, begin, end, core, instr});
}

void DataCache::clean(int core, const Memory* mem, uint64_t begin, uint64_t end) {
    std::vector<Dirty> kept;
    kept.reserve(dirty_.size());
    for (const auto& d : dirty_) {
        if (d.core != core || (mem && d.mem != mem) || (mem && (end <= d.begin || begin >= d.end))) {
            kept.push_back(d);
            continue;
        }
        if (!mem) continue;
        if (d.begin < begin) kept.push_back({d.mem, d.begin, begin, d.core, d.instr});
        if (d.end > end) kept.push_back({d.mem, end, d.end, d.core, d.instr});
    }
    dirty_ = std::move(kept);
}

const DataCache::Dirty* DataCache::find(const Memory* mem, uint64_t begin, uint64_t end, int reader,
                                        Holder h) const {
    for (const auto& d : dirty_)
        if (d.mem == mem && begin < d.end && end > d.begin && (d.core == reader) == (h == Holder::self))
            return &d;
    return nullptr;
}

void Machine::dcache_violation(Core& reader, const Instr& in, const DataCache::Dirty& d) {
    Location w;
    w.instr = d.instr;
    w.core = d.core;
    w.core_name = core(d.core).name();
    w.pipe = std::string(pipe_name(Pipe::S));
    w.op = "SetValue";
    w.memory = d.mem->name();
    w.begin = d.begin;
    w.end = d.end;
    w.access = "write";
    if (const TraceEntry* t = traced(d.instr)) {
        w.op = t->op();
        w.site = t->site().str();
    }
    Location r = reader.location(in);
    r.memory = d.mem->name();
    r.access = "read";
    violate(
        {ViolationKind::dcache_not_clean,
         Severity::error,
         fmt::format(
             "{} (pipe {} read #{} at {} on {}) reads GM bytes [{}, {}) of {} that {} #{} at {} of {} wrote "
             "through its scalar data cache, which the hardware does not keep coherent with GM: no "
             "DataCacheCleanAndInvalid has written them back, so the read sees stale GM; call "
             "DataCacheCleanAndInvalid<T, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT> on the "
             "written GlobalTensor after the SetValue and before the read",
             in.op, pipe_name(in.pipe), in.id, in.site.str(), reader.name(), d.begin, d.end, d.mem->name(),
             w.op, d.instr, w.site.empty() ? std::string_view("?") : std::string_view(w.site), w.core_name),
         {w, r},
         1});
}

void Machine::violate(Violation v) {
    // The node of a location: its instruction's, or, for a location without one, the node its core runs now
    // (an issue-time check, or the call a deadlocked core is blocked in). Not part of the folding key: one
    // fault of the library reached through several nodes stays one violation, named by its first.
    for (auto& l : v.locations) {
        if (!l.node.empty()) continue;
        int32_t n = -1;
        if (const TraceEntry* t = traced(l.instr))
            n = t->node;
        else if (l.instr == 0 && l.core >= 0 && l.core < core_count())
            n = core(l.core).node_;
        if (n >= 0) l.node = node_labels_[static_cast<size_t>(n)];
    }
    std::string key(violation_kind_name(v.kind));
    for (const auto& l : v.locations) key += fmt::format("|{}|{}|{}", l.site, l.op, l.pipe);
    if (v.locations.empty()) key += "|" + v.message;
    auto it = violation_index_.find(key);
    if (it != violation_index_.end()) {
        violations_[it->second].occurrences++;
        return;
    }
    if (violations_.size() >= cfg_.max_violations) {
        ++dropped_violations_;
        return;
    }
    violation_index_.emplace(key, violations_.size());
    violations_.push_back(std::move(v));
}

}  // namespace evg::hw
