// The scalar data cache of each core, as far as GM coherence goes: GM bytes a scalar SetValue wrote sit dirty
// in the writing core's cache until a DataCacheCleanAndInvalid covering them writes them back. The hardware
// keeps neither the DMA nor other cores coherent with that cache, so a DMA or any other pipe (of any core),
// or another core's scalar unit, reading dirty bytes reads stale GM.
#pragma once
#include <cstdint>
#include <vector>

namespace evg::hw {

class Memory;

class DataCache {
  public:
    struct Dirty {
        Memory* mem;
        uint64_t begin, end;
        int core;        // launch-wide index of the writing core
        uint64_t instr;  // the first SetValue that dirtied the range
    };
    bool empty() const { return dirty_.empty(); }
    // A scalar store of `core` to [begin, end) of GM memory `mem`.
    void write(Memory* mem, uint64_t begin, uint64_t end, int core, uint64_t instr);
    // A clean by `core`: of [begin, end) of `mem`, or of everything the core holds when `mem` is null.
    void clean(int core, const Memory* mem, uint64_t begin, uint64_t end);
    enum class Holder : uint8_t { self, others };
    // The first dirty range overlapping [begin, end) of `mem` held by core `reader` (self) or by any other
    // core (others).
    const Dirty* find(const Memory* mem, uint64_t begin, uint64_t end, int reader, Holder h) const;
    // Appends the instructions that dirtied the held ranges.
    void instrs(std::vector<uint64_t>& out) const {
        for (const auto& d : dirty_) out.push_back(d.instr);
    }

  private:
    std::vector<Dirty> dirty_;
};

}  // namespace evg::hw
