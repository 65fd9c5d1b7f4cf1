// Data-cache checker: GM bytes a scalar SetValue wrote sit dirty in the writing core's data cache until a
// DataCacheCleanAndInvalid covering them writes them back. The hardware keeps neither the DMA nor other
// cores coherent with that cache, so a DMA or any other pipe (of any core), or another core's scalar unit,
// reading dirty bytes reads stale GM: dcache_not_clean.
//
// A pipe's read of bytes its own core left dirty is wrong whatever the schedule (the clean comes later in
// program order): judged at issue. Bytes dirty in another core's cache are judged when the read executes,
// for the reads issued while some cache held dirty bytes.
#include <fmt/format.h>

#include <unordered_set>

#include "evg/hw/checker.hpp"
#include "evg/hw/memory.hpp"

namespace evg::hw {

namespace {

struct Dirty {
    const Memory* mem;
    uint64_t begin, end;
    int core;        // launch-wide index of the writing core
    uint64_t instr;  // the first SetValue that dirtied the range
};

enum class Holder : uint8_t { self, others };

class DcacheChecker final : public Checker {
  public:
    explicit DcacheChecker(CheckerHost& host) : host_(host) {}
    unsigned events() const override { return kIssue | kExecute | kSync; }

    void on_issue(const IssueEvent& e) override;
    void on_execute(const ExecuteEvent& e) override;
    void on_sync(const SyncEvent& e) override;
    void live_instrs(std::vector<uint64_t>& out) const override {
        for (const auto& d : dirty_) out.push_back(d.instr);
    }

  private:
    CheckerHost& host_;
    std::vector<Dirty> dirty_;
    // Pipe instructions reading GM that were issued while a cache held dirty bytes: checked at execution.
    std::unordered_set<uint64_t> watched_;

    // The first dirty range overlapping [begin, end) of `mem` held by core `reader` (self) or by any other
    // core (others).
    const Dirty* find(const Memory* mem, uint64_t begin, uint64_t end, int reader, Holder h) const;
    void check_reads(int core, const Instr& in, Holder h);
    void write(const Memory* mem, uint64_t begin, uint64_t end, int core, uint64_t instr);
    void clean(int core, const Memory* mem, uint64_t begin, uint64_t end);
    void report(int reader, const Instr& in, const Dirty& d);
};

bool reads_gm(const Access& a) {
    return !a.write && a.mem && a.mem->kind() == MemKind::GM;
}

void DcacheChecker::on_issue(const IssueEvent& e) {
    if (dirty_.empty() || e.in.pipe == Pipe::S) return;
    bool any = false;
    for (const auto& a : e.in.accesses) any |= reads_gm(a);
    if (!any) return;
    check_reads(e.core, e.in, Holder::self);
    watched_.insert(e.in.id);
}

void DcacheChecker::on_execute(const ExecuteEvent& e) {
    if (e.in.pipe != Pipe::S) {
        if (watched_.empty() || watched_.erase(e.in.id) == 0) return;
        check_reads(e.core, e.in, Holder::others);
        return;
    }
    // A scalar access: its reads see other cores' dirty bytes stale; its GM writes go dirty in its cache.
    if (!dirty_.empty()) check_reads(e.core, e.in, Holder::others);
    for (const auto& a : e.in.accesses)
        if (a.write && a.mem && a.mem->kind() == MemKind::GM && a.begin < a.end)
            write(a.mem, a.begin, a.end, e.core, e.in.id);
}

void DcacheChecker::on_sync(const SyncEvent& e) {
    if (e.kind != SyncKind::dcache_clean) return;
    clean(e.core, e.mem, e.begin, e.end);
}

void DcacheChecker::check_reads(int core, const Instr& in, Holder h) {
    for (const auto& a : in.accesses)
        if (reads_gm(a))
            if (const Dirty* d = find(a.mem, a.begin, a.end, core, h)) report(core, in, *d);
}

void DcacheChecker::write(const Memory* mem, uint64_t begin, uint64_t end, int core, uint64_t instr) {
    for (auto& d : dirty_)
        if (d.mem == mem && d.core == core && begin <= d.end && end >= d.begin) {
            // Adjacent or overlapping: one range, still named by its first SetValue.
            if (begin < d.begin) d.begin = begin;
            if (end > d.end) d.end = end;
            return;
        }
    dirty_.push_back({mem, begin, end, core, instr});
}

void DcacheChecker::clean(int core, const Memory* mem, uint64_t begin, uint64_t end) {
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

const Dirty* DcacheChecker::find(const Memory* mem, uint64_t begin, uint64_t end, int reader,
                                 Holder h) const {
    for (const auto& d : dirty_)
        if (d.mem == mem && begin < d.end && end > d.begin && (d.core == reader) == (h == Holder::self))
            return &d;
    return nullptr;
}

void DcacheChecker::report(int reader, const Instr& in, const Dirty& d) {
    const TraceEntry* t = host_.traced(d.instr);
    Location w = t ? location_of(host_, *t)
                   : location_at(d.instr, d.core, host_.core_name(d.core), Pipe::S, "SetValue", Site{});
    w.memory = d.mem->name();
    w.begin = d.begin;
    w.end = d.end;
    w.access = "write";
    Location r = location_of(reader, host_.core_name(reader), in);
    r.memory = d.mem->name();
    r.access = "read";
    host_.violate(
        {ViolationKind::dcache_not_clean,
         Severity::error,
         fmt::format(
             "{} (pipe {} read #{} at {} on {}) reads GM bytes [{}, {}) of {} that {} #{} at {} of {} wrote "
             "through its scalar data cache, which the hardware does not keep coherent with GM: no "
             "DataCacheCleanAndInvalid has written them back, so the read sees stale GM; call "
             "DataCacheCleanAndInvalid<T, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT> on the "
             "written GlobalTensor after the SetValue and before the read",
             in.op, pipe_name(in.pipe), in.id, in.site.str(), host_.core_name(reader), d.begin, d.end,
             d.mem->name(), w.op, d.instr, w.site, w.core_name),
         {w, r},
         1});
}

}  // namespace

std::unique_ptr<Checker> make_dcache_checker(CheckerHost& host) {
    return std::make_unique<DcacheChecker>(host);
}

}  // namespace evg::hw
