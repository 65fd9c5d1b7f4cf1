// The instruction trace: one fixed-size record per issued instruction (op names and sites interned
// process-wide, accesses in one flat array beside the records), kept when Config::keep_trace.
#pragma once
#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "evg/hw/arch.hpp"
#include "evg/hw/numeric/dtype.hpp"
#include "evg/hw/site.hpp"

namespace evg::hw {

enum class InstrKind : uint8_t { plain, set_flag, wait_flag, barrier, cross_set, cross_wait };

// The id of (op, site) in a process-wide, thread-safe, append-only table: a program has few distinct ops and
// sites, so a record holds 32 bits instead of a string. Id 0 is ("", Site{}).
uint32_t intern_op_site(std::string_view op, Site site);
std::string_view interned_op(uint32_t id);
// The site as interned: the same file name and line (its `file` points into the table, which lives as long
// as the process).
Site interned_site(uint32_t id);
size_t interned_op_sites();  // distinct (op, site) pairs so far

// One byte range an instruction touched, as recorded in the trace (Config::trace_accesses).
struct TraceAccess {
    uint32_t mem = 0;  // Memory::uid(): GM allocations and every core's local memories have distinct ids
    MemKind kind = MemKind::GM;  // the memory's kind (the cycle model's data path)
    uint64_t begin = 0, end = 0;
    bool write = false;
    bool atomic = false;
};

// A record of every issued instruction, kept for reports, tests, the sync fuzzers and the schedule explorer.
// Sync instructions carry their event, id, mode and flag as fields: nothing downstream parses `op`. Fixed
// size and no heap member (a long kernel's trace costs one record per instruction, nothing more);
// ids are 32 bits, so a launch that keeps its trace is limited to 2^32 - 1 instructions (Machine refuses a
// larger Config::max_instructions).
struct TraceEntry {
    uint32_t id = 0;      // issue order over the whole launch, 1-based
    uint32_t epoch = 0;   // position in its pipe's queue, 1-based (scalar-unit entries: in the S stream)
    uint32_t stream = 0;  // position in its core's scalar issue stream, 1-based: every instruction the
                          // core's scalar unit issued or executed, in program order
    int32_t sync_index =
        -1;                // sync calls only: the core's n-th sync call (0-based), the mutation point number
    int32_t node = -1;     // the graph node that issued it: an index into Report::node_labels (-1: none, e.g.
                           // BlockEpilogue's and the kernel's own instructions)
    uint32_t matched = 0;  // wait_flag / cross_wait: the set whose increment this run's wait consumed (for a
                           // mode 0/1/2 round, the set that completed the round); 0 if it never ran
    uint32_t op_site = 0;  // intern_op_site(op, site)
    uint16_t core = 0;     // launch-wide core index (AICs first, then AIVs; see Machine)
    int16_t event_id = -1;  // set_flag, wait_flag (Core::check_event keeps it within the arch's few ids)
    Pipe pipe = Pipe::S;
    InstrKind kind = InstrKind::plain;
    bool blocking = false;  // executed by the scalar unit, which issued nothing more until it completed
                            // (an S-pipe WaitFlag, an AtlasA2 CrossCoreWaitFlag, PipeBarrier<PIPE_ALL>)
    HardEvent event = HardEvent::MAX;  // set_flag, wait_flag
    uint8_t cross_mode = 0;            // cross_set, cross_wait
    Pipe barrier_pipe = Pipe::S;       // barrier: the pipe it orders (Pipe::ALL for PipeBarrier<PIPE_ALL>)
    DType dtype = DType::f32;  // vector and cube instructions: the element type their cost depends on (Cast:
                               // the source type; Mmad: the type of A and B); unused elsewhere
    uint8_t cross_flag = 0;    // cross_set, cross_wait (ids < 32: ArchSpec::cross_core_flags, mode 4 doubled)
    uint32_t repeats = 0;      // vector instructions given a repeat count (level-0 forms: their repeats,
                               // strided or masked); 0: derived from the widest access (256 bytes a repeat)
    uint32_t after = 0;  // plain: the earlier instruction of its pipe that the pipe orders it after without a
                         // barrier (Instr::after, rule R3); 0 if none

    std::string_view op() const { return interned_op(op_site); }  // "DataCopyPad", "SetFlag<MTE2_V>(0)"
    Site site() const { return interned_site(op_site); }
    void set_op(std::string_view op, Site site = {}) { op_site = intern_op_site(op, site); }
};
static_assert(
    sizeof(TraceEntry) <= 48,
    "a TraceEntry is at most 48 bytes: a long kernel's trace costs one small record per instruction");

// The records of a launch, in issue order (entry i has id i + 1), with their accesses. Entries are stored in
// fixed chunks: growing never copies what is already there, so a trace of n instructions peaks at n records,
// not at the 2n-3n of a reallocating vector.
class Trace {
  public:
    static constexpr size_t kChunkBits = 14;
    static constexpr size_t kChunk = size_t{1} << kChunkBits;

    class const_iterator {
      public:
        using iterator_category = std::random_access_iterator_tag;
        using iterator_concept = std::random_access_iterator_tag;
        using value_type = TraceEntry;
        using difference_type = std::ptrdiff_t;
        using pointer = const TraceEntry*;
        using reference = const TraceEntry&;

        const_iterator() = default;
        const_iterator(const Trace* t, size_t i) : t_(t), i_(i) {}
        reference operator*() const { return (*t_)[i_]; }
        pointer operator->() const { return &(*t_)[i_]; }
        reference operator[](difference_type n) const { return (*t_)[i_ + static_cast<size_t>(n)]; }
        const_iterator& operator++() {
            ++i_;
            return *this;
        }
        const_iterator operator++(int) {
            auto o = *this;
            ++i_;
            return o;
        }
        const_iterator& operator--() {
            --i_;
            return *this;
        }
        const_iterator operator--(int) {
            auto o = *this;
            --i_;
            return o;
        }
        const_iterator& operator+=(difference_type n) {
            i_ += static_cast<size_t>(n);
            return *this;
        }
        const_iterator& operator-=(difference_type n) {
            i_ -= static_cast<size_t>(n);
            return *this;
        }
        friend const_iterator operator+(const_iterator a, difference_type n) { return a += n; }
        friend const_iterator operator+(difference_type n, const_iterator a) { return a += n; }
        friend const_iterator operator-(const_iterator a, difference_type n) { return a -= n; }
        friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
            return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.i_ == b.i_; }
        friend auto operator<=>(const const_iterator& a, const const_iterator& b) { return a.i_ <=> b.i_; }

      private:
        const Trace* t_ = nullptr;
        size_t i_ = 0;
    };
    using iterator = const_iterator;
    using value_type = TraceEntry;
    using size_type = size_t;

    Trace() = default;
    Trace(std::initializer_list<TraceEntry> entries);
    Trace(const Trace&) = default;
    Trace& operator=(const Trace&) = default;
    // A moved-from trace is empty (Device and graph::run_on_model hand the trace on by moving it).
    Trace(Trace&& o) noexcept { swap(o); }
    Trace& operator=(Trace&& o) noexcept {
        Trace t(std::move(o));
        swap(t);
        return *this;
    }
    void swap(Trace& o) noexcept {
        chunks_.swap(o.chunks_);
        std::swap(size_, o.size_);
        accesses_.swap(o.accesses_);
        access_end_.swap(o.access_end_);
    }

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const TraceEntry& operator[](size_t i) const { return chunks_[i >> kChunkBits][i & (kChunk - 1)]; }
    TraceEntry& operator[](size_t i) { return chunks_[i >> kChunkBits][i & (kChunk - 1)]; }
    const TraceEntry& front() const { return (*this)[0]; }
    const TraceEntry& back() const { return (*this)[size_ - 1]; }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size_}; }

    void push_back(const TraceEntry& e);
    // Appends `e` with the byte ranges it touched (Config::trace_accesses).
    void push_back(const TraceEntry& e, std::span<const TraceAccess> accesses);
    // The accesses recorded for entry i (empty when none were).
    std::span<const TraceAccess> accesses(size_t i) const;
    // The accesses of a machine-recorded entry (found by its id).
    std::span<const TraceAccess> accesses_of(const TraceEntry& e) const {
        return e.id ? accesses(e.id - 1) : std::span<const TraceAccess>{};
    }
    void clear();

  private:
    std::vector<std::vector<TraceEntry>> chunks_;  // every chunk but the last holds kChunk entries
    size_t size_ = 0;
    std::vector<TraceAccess> accesses_;
    std::vector<uint64_t> access_end_;  // entry i's accesses end at access_end_[i]; shorter when not recorded
};

}  // namespace evg::hw
