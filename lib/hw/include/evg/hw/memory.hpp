// A memory is bytes plus a shadow of which bytes were ever written, plus the race checker's access history.
// GM allocations, and each core's UB / L1 / L0A / L0B / L0C / BT / FB, are each one Memory.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "evg/hw/arch.hpp"

namespace evg::hw {

class RaceShadow;

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
    uint64_t size() const { return size_; }
    uint8_t* data() { return data_; }
    const uint8_t* data() const { return data_; }
    // written()[i] != 0 iff byte i was ever written by a store, a copy or the host.
    uint8_t* written() { return written_; }
    const uint8_t* written() const { return written_; }
    RaceShadow& shadow();
    void reset_shadow();  // forget access history (a new launch starts after the previous one completed)
    // Appends the instructions the access history names (Machine keeps their descriptions).
    void shadow_instrs(std::vector<uint64_t>& out) const;

    bool contains(uint64_t offset, uint64_t bytes) const {
        return offset <= size_ && bytes <= size_ - offset;
    }
    void mark_written(uint64_t offset, uint64_t bytes, bool value = true);
    bool all_written(uint64_t offset, uint64_t bytes) const;
    // First never-written byte in [offset, offset+bytes), or -1.
    int64_t first_unwritten(uint64_t offset, uint64_t bytes) const;

    // Highest byte end any instruction touched (UB peak).
    uint64_t peak() const { return peak_; }
    void note_touch(uint64_t end) {
        if (end > peak_) peak_ = end;
    }

  private:
    // A core's local memory: its storage is recycled for the next launch's (GM allocations, which the host
    // frees when it likes, are mapped and unmapped as they come).
    bool pooled() const { return kind_ != MemKind::GM; }
    MemKind kind_;
    uint32_t uid_;
    std::string name_;
    uint64_t size_;
    uint8_t* base_;  // the allocation; data_ is its first aligned byte
    size_t base_bytes_;
    size_t written_bytes_;
    uint8_t* data_;
    uint8_t* written_;
    uint64_t peak_ = 0;
    std::unique_ptr<RaceShadow> shadow_;
};

}  // namespace evg::hw
