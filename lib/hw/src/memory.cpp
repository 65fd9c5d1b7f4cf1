#include "evg/hw/memory.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include "evg/hw/error.hpp"
#include "evg/hw/race_shadow.hpp"

namespace evg::hw {

namespace {
uint32_t next_uid() {
    static std::atomic<uint32_t> next{1};
    return next++;
}
}  // namespace

Memory::Memory(MemKind kind, std::string name, uint64_t size, uint64_t alignment)
    : kind_(kind), uid_(next_uid()), name_(std::move(name)), size_(size) {
    uint64_t rounded = (size + alignment - 1) / alignment * alignment;
    if (rounded == 0) rounded = alignment;
    // calloc, not aligned_alloc + memset: large blocks come zeroed from the OS page by page, so a launch of
    // thousands of cores only pays for the bytes its kernel touches.
    base_ = static_cast<uint8_t*>(std::calloc(rounded + alignment, 1));
    written_ = static_cast<uint8_t*>(std::calloc(rounded, 1));
    if (!base_ || !written_) {
        std::free(base_);
        std::free(written_);
        throw HostError("cannot allocate " + std::to_string(size) + " bytes of host memory for " + name_);
    }
    auto addr = reinterpret_cast<uintptr_t>(base_);
    data_ = base_ + (alignment - addr % alignment) % alignment;
}

Memory::~Memory() {
    std::free(base_);
    std::free(written_);
}

RaceShadow& Memory::shadow() {
    if (!shadow_) shadow_ = std::make_unique<RaceShadow>();
    return *shadow_;
}

void Memory::reset_shadow() {
    if (shadow_) shadow_->clear();
}

void Memory::mark_written(uint64_t offset, uint64_t bytes, bool value) {
    if (!contains(offset, bytes)) return;
    std::memset(written_ + offset, value ? 1 : 0, bytes);
}

bool Memory::all_written(uint64_t offset, uint64_t bytes) const {
    return first_unwritten(offset, bytes) < 0;
}

int64_t Memory::first_unwritten(uint64_t offset, uint64_t bytes) const {
    if (!contains(offset, bytes)) return static_cast<int64_t>(offset);
    const void* z = std::memchr(written_ + offset, 0, bytes);
    return z ? static_cast<const uint8_t*>(z) - written_ : -1;
}

}  // namespace evg::hw
