#include "evg/hw/dcache.hpp"

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

}  // namespace evg::hw
