#include "evg/hw/race_shadow.hpp"

#include <algorithm>

namespace evg::hw {

RaceShadow::Segs::iterator RaceShadow::split_at(uint64_t pos) {
    auto next = segs_.upper_bound(pos);
    if (next == segs_.begin()) return next;
    auto it = std::prev(next);
    if (it->first == pos) return it;
    if (it->second.end <= pos) return next;
    Seg right{it->second.end, it->second.write, Reads(it->second.reads, &pool_)};
    it->second.end = pos;
    return segs_.emplace_hint(next, pos, std::move(right));
}

void RaceShadow::access(uint64_t begin, uint64_t end, bool write, const AccessRecord& rec,
                        const Ordered& ordered, std::vector<Conflict>& conflicts) {
    if (begin >= end) return;
    // Past everything recorded (GM read or written tile after tile): nothing to check, and the new segment
    // goes last, next to the node the previous access added, without a search from the root.
    if (segs_.empty() || begin >= std::prev(segs_.end())->second.end) {
        if (write)
            segs_.emplace_hint(segs_.end(), begin, seg(end, rec, nullptr));
        else
            segs_.emplace_hint(segs_.end(), begin, seg(end, AccessRecord{}, &rec));
        return;
    }
    // The first segment at or after `begin` (map iterators survive the second split's insertion).
    const auto first = split_at(begin);
    split_at(end);
    auto report = [&](const AccessRecord& e, bool e_write, uint64_t b, uint64_t en) {
        if (e.instr == 0 || e.instr == rec.instr) return;
        if (e.atomic && rec.atomic) return;  // atomic accumulations commute
        if (ordered(e.at)) return;
        for (auto& c : conflicts)
            if (c.earlier.instr == e.instr) {
                c.begin = std::min(c.begin, b);
                c.end = std::max(c.end, en);
                return;
            }
        conflicts.push_back({e, e_write, b, en});
    };
    // Check against the history.
    for (auto it = first; it != segs_.end() && it->first < end; ++it) {
        uint64_t b = it->first, e = it->second.end;
        report(it->second.write, true, b, e);
        if (write)
            for (const auto& r : it->second.reads) report(r, false, b, e);
    }
    // Record.
    if (write) {
        // The write replaces whatever [begin, end) held. The segment that starts at `begin` (there is one
        // when the bytes were accessed before, which is the usual case: buffers are rewritten tile after
        // tile) is reused with its read list's storage; the rest of the range goes.
        auto it = first;
        if (it == segs_.end() || it->first != begin) {
            segs_.emplace_hint(it, begin, seg(end, rec, nullptr));
            while (it != segs_.end() && it->first < end) it = segs_.erase(it);
            return;
        }
        it->second.end = end;
        it->second.write = rec;
        it->second.reads.clear();
        for (++it; it != segs_.end() && it->first < end;) it = segs_.erase(it);
        return;
    }
    uint64_t cursor = begin;
    auto it = first;
    // A read of the same agent replaces an earlier one only when the earlier one happens-before it: then
    // whatever is ordered after the new read (clocks cover an agent's epochs as a prefix) is ordered after
    // the old one too, for every later access but the new read's own instruction. On a pipe that keeps no
    // order the earlier read stays, or an in-place instruction (read then write of the same bytes) would
    // check its write only against its own read and miss the earlier, unordered one.
    auto add_read = [&](Seg& s) {
        bool have = false;
        std::erase_if(s.reads, [&](const AccessRecord& r) {
            if (r.at.agent != rec.at.agent) return false;
            if (r.instr == rec.instr) {
                have = true;
                return false;
            }
            return r.at.epoch < rec.at.epoch && ordered(r.at);
        });
        if (!have) s.reads.push_back(rec);
    };
    while (cursor < end) {
        if (it == segs_.end() || it->first > cursor) {
            uint64_t gap_end = (it == segs_.end()) ? end : std::min(end, it->first);
            auto ins = segs_.emplace(cursor, seg(gap_end, AccessRecord{}, &rec)).first;
            cursor = gap_end;
            it = std::next(ins);
            continue;
        }
        add_read(it->second);
        cursor = it->second.end;
        ++it;
    }
}

void RaceShadow::instrs(std::vector<uint64_t>& out) const {
    for (const auto& [begin, s] : segs_) {
        if (s.write.instr) out.push_back(s.write.instr);
        for (const auto& r : s.reads) out.push_back(r.instr);
    }
}

}  // namespace evg::hw
