#include "evg/hw/memory.hpp"

#include <sys/mman.h>

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

// Zero-filled storage. Large blocks are mapped from the OS, whose pages arrive zeroed when first touched: a
// launch pays for the bytes its kernel uses, not for the whole L1 and UB of every core (calloc would memset
// blocks that malloc recycles, and a property run launches thousands of kernels).
constexpr size_t kMapFrom = size_t{64} << 10;

void* zeroed_block(size_t bytes) {
    if (bytes < kMapFrom) return std::calloc(bytes, 1);
    void* p =
        mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
}

void free_block(void* p, size_t bytes) {
    if (!p) return;
    if (bytes < kMapFrom)
        std::free(p);
    else
        munmap(p, bytes);
}
}  // namespace

Memory::Memory(MemKind kind, std::string name, uint64_t size, uint64_t alignment)
    : kind_(kind), uid_(next_uid()), name_(std::move(name)), size_(size) {
    uint64_t rounded = (size + alignment - 1) / alignment * alignment;
    if (rounded == 0) rounded = alignment;
    base_bytes_ = rounded + alignment;
    written_bytes_ = rounded;
    base_ = static_cast<uint8_t*>(zeroed_block(base_bytes_));
    written_ = static_cast<uint8_t*>(zeroed_block(written_bytes_));
    if (!base_ || !written_) {
        free_block(base_, base_bytes_);
        free_block(written_, written_bytes_);
        throw HostError("cannot allocate " + std::to_string(size) + " bytes of host memory for " + name_);
    }
    auto addr = reinterpret_cast<uintptr_t>(base_);
    data_ = base_ + (alignment - addr % alignment) % alignment;
}

Memory::~Memory() {
    free_block(base_, base_bytes_);
    free_block(written_, written_bytes_);
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
