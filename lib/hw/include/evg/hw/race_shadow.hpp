// Per-memory access history for the race checker: an interval map from byte ranges to the last write and the
// reads since, each as (agent, epoch, instruction). Checking an access against it decides, with the
// accessor's vector clock, whether every earlier conflicting access happens-before it.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory_resource>
#include <vector>

#include "evg/hw/clock.hpp"

namespace evg::hw {

struct AccessRecord {
    Epoch at;
    uint64_t instr = 0;
    bool atomic = false;
};

struct Conflict {
    AccessRecord earlier;
    bool earlier_is_write;
    uint64_t begin, end;  // overlapping bytes
};

class RaceShadow {
  public:
    // `ordered(e)` tells whether epoch e happens-before the access being checked.
    using Ordered = std::function<bool(const Epoch&)>;

    // Checks [begin, end) against the history, reports each conflicting unordered earlier access (at most one
    // per earlier instruction), then records the access.
    void access(uint64_t begin, uint64_t end, bool write, const AccessRecord& rec, const Ordered& ordered,
                std::vector<Conflict>& conflicts);
    void clear() { segs_.clear(); }
    size_t segments() const { return segs_.size(); }
    // Appends every instruction the history names (with repeats).
    void instrs(std::vector<uint64_t>& out) const;

  private:
    using Reads = std::pmr::vector<AccessRecord>;
    struct Seg {
        uint64_t end;
        AccessRecord write;  // write.instr == 0: never written in this launch
        Reads reads;         // per agent: the latest, and earlier ones not ordered before it
    };
    using Segs = std::pmr::map<uint64_t, Seg>;
    // The segments' nodes and read lists come from a pool of their own: a launch splits, merges and rewrites
    // segments at nearly every access, and the pool gives freed nodes back without a trip to the heap.
    std::pmr::unsynchronized_pool_resource pool_;
    Segs segs_{&pool_};  // keyed by begin; segments do not overlap
    Seg seg(uint64_t end, const AccessRecord& write, const AccessRecord* read) {
        Seg s{end, write, Reads(&pool_)};
        if (read) s.reads.push_back(*read);
        return s;
    }
    // Makes `pos` a segment boundary (splitting the segment across it) and returns the first segment that
    // begins at or after `pos`.
    Segs::iterator split_at(uint64_t pos);
};

}  // namespace evg::hw
