// A memory is bytes plus a shadow of which bytes were ever written.
// GM allocations, and each core's UB / L1 / L0A / L0B / L0C / BT / FB, are each one Memory.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "evg/hw/arch.hpp"

namespace evg::hw {

// memmove(dst, src, bytes). A large copy between disjoint ranges goes as several interleaved streams of cache
// lines: one stream of a copy from far memory waits on one miss after another, several keep more misses in
// flight (the model's tile copies).
void move_bytes(uint8_t* dst, const uint8_t* src, uint64_t bytes);

class Memory {
  public:
    // Bytes start zeroed and marked never-written. `alignment` is the host alignment of the storage.
    Memory(MemKind kind, std::string name, uint64_t size, uint64_t alignment = 512);
    ~Memory();
    Memory(const Memory&) = delete;
    Memory& operator=(const Memory&) = delete;

    MemKind kind() const { return kind_; }
    // Distinct for every Memory the process creates (GM allocations, each core's local memories): names a
    // memory in TraceAccess.
    uint32_t uid() const { return uid_; }
    const std::string& name() const { return name_; }
    void set_name(std::string n) { name_ = std::move(n); }
    // Where a GM allocation was made, as a user reads it ("aclrtMalloc at my_evg.cpp:88"); empty when not
    // known (a harness's Device::malloc).
    const std::string& origin() const { return origin_; }
    void set_origin(std::string o) { origin_ = std::move(o); }
    uint64_t size() const { return size_; }
    uint8_t* data() { return data_; }
    const uint8_t* data() const { return data_; }

    bool contains(uint64_t offset, uint64_t bytes) const {
        return offset <= size_ && bytes <= size_ - offset;
    }
    // The written-shadow: whether each byte was ever written by a store, a copy or the host. It is kept as
    // one flag byte per byte plus one bit per 256-byte chunk meaning "every byte of the chunk is written";
    // where that bit is set the chunk's flag bytes are not read (nor kept up to date), so marking, testing
    // and copying whole written ranges costs a bit per chunk instead of a byte per byte. Every access goes
    // through these functions; ranges outside the memory are ignored (first_unwritten: reported as unwritten
    // at `offset`).
    void mark_written(uint64_t offset, uint64_t bytes, bool value = true);
    bool all_written(uint64_t offset, uint64_t bytes) const;
    // First never-written byte in [offset, offset+bytes), or -1.
    int64_t first_unwritten(uint64_t offset, uint64_t bytes) const;
    // The flags of [offset, offset+bytes) into out[0, bytes) (1 written, 0 not).
    void read_written(uint64_t offset, uint64_t bytes, uint8_t* out) const;
    // The flags of src's [src_offset, +bytes) onto this memory's [offset, +bytes), as a memmove of those
    // bytes does (src may be this memory, the ranges may overlap).
    void copy_written(uint64_t offset, Memory& src, uint64_t src_offset, uint64_t bytes);
    // For updates lane by lane: the flag bytes of [offset, offset+bytes), made authoritative (the chunks'
    // bits cleared), as a pointer to the flag byte of `offset` (flags are 0 or 1). After writing through it,
    // call refold_written on the range, which sets the bits of the chunks that are then all written.
    uint8_t* unfolded_written(uint64_t offset, uint64_t bytes);
    void refold_written(uint64_t offset, uint64_t bytes);

    // Highest byte end any instruction touched (UB peak).
    uint64_t peak() const { return peak_; }
    // An instruction touches [begin, end): raises the peak, and notes the pages (note_pages).
    void note_touch(uint64_t begin, uint64_t end);
    void note_touch(uint64_t end) { note_touch(0, end); }
    // Notes the pages of [begin, end) as written, without raising the peak (a scalar SetValue, which the UB
    // peak does not count): a core's local memory goes back to the pool clearing the pages noted and no
    // other, so every write to one must be noted (lib/hw/src/memory.cpp, BlockPool).
    void note_pages(uint64_t begin, uint64_t end);

  private:
    // A core's local memory: its storage is recycled for the next launch's (GM allocations, which the host
    // frees when it likes, are mapped and unmapped as they come).
    bool pooled() const { return kind_ != MemKind::GM; }
    MemKind kind_;
    uint32_t uid_;
    std::string name_;
    std::string origin_;
    uint64_t size_;
    uint8_t* base_;  // the allocation; data_ is its first aligned byte
    size_t base_bytes_;
    size_t written_bytes_;
    uint8_t* data_;
    uint8_t* written_;  // one flag byte per byte, read where the chunk's bit in full_ is clear
    std::vector<uint64_t> touched_pages_;  // bit i: page i of the data allocation (from base_) was touched
    uint64_t flags_dirty_ = 0;             // no flag byte at or above it was written
    // Bit c: every byte of chunk c (bytes [256c, 256c + 256) within size_) is written.
    std::vector<uint64_t> full_;
    uint64_t peak_ = 0;
    uint64_t noted_end_ = 0;  // the highest end note_pages was given
    static constexpr unsigned kChunkShift = 8;
    static constexpr uint64_t kChunk = uint64_t{1} << kChunkShift;
    bool chunk_full(uint64_t c) const { return ((full_[c >> 6] >> (c & 63)) & 1) != 0; }
    void set_chunk_full(uint64_t c, bool full);
    void set_chunks_full(uint64_t begin, uint64_t end, bool full);  // chunks [begin, end)
    uint64_t chunk_end(uint64_t c) const;  // one past the last byte of chunk c that is inside the memory
    // Makes chunk c's flag bytes authoritative (all 1 if its bit was set) and clears the bit.
    void unfold_chunk(uint64_t c);
    // Sets the bit of chunk c (whose flag bytes are authoritative) if they are all 1.
    void refold_chunk(uint64_t c);
};

}  // namespace evg::hw
