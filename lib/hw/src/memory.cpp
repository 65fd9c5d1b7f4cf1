#include "evg/hw/memory.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <vector>

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
constexpr size_t kPage = 4096;

// Mapped blocks of finished launches, kept per thread for the next launch's memories of the same size:
// mapping and unmapping every core's L1 and UB at every launch cost a tenth of a property case (the kernel
// tearing down page tables, then page faults to bring them back). A block comes back zeroed: the part the
// last launch may have dirtied (below its high-water mark, whole pages) is cleared with memset and stays
// resident; the rest is handed back to the OS with MADV_DONTNEED, after which its pages read as zero again,
// so the block is exactly as fresh as a new mapping whatever was written where.
thread_local bool pool_gone = false;  // the thread's pool was destroyed (a memory freed at exit after it)

class BlockPool {
  public:
    BlockPool() = default;
    BlockPool(const BlockPool&) = delete;
    BlockPool& operator=(const BlockPool&) = delete;
    ~BlockPool() {
        for (auto& [bytes, blocks] : free_)
            for (void* p : blocks) munmap(p, bytes);
        pool_gone = true;
    }
    void* take(size_t bytes) {
        auto it = free_.find(bytes);
        if (it == free_.end() || it->second.empty()) return nullptr;
        void* p = it->second.back();
        it->second.pop_back();
        held_ -= bytes;
        return p;
    }
    // `dirty`: no byte at or above it was written (a hint: bytes above it are cleared as well, only slower).
    void give(void* p, size_t bytes, size_t dirty) {
        if (held_ + bytes > kMaxHeld) {
            munmap(p, bytes);
            return;
        }
        const size_t cleared = std::min(bytes, (dirty + kPage - 1) / kPage * kPage);
        std::memset(p, 0, cleared);
        if (cleared < bytes &&
            madvise(static_cast<uint8_t*>(p) + cleared, bytes - cleared, MADV_DONTNEED) != 0) {
            munmap(p, bytes);
            return;
        }
        free_[bytes].push_back(p);
        held_ += bytes;
    }

  private:
    static constexpr size_t kMaxHeld = size_t{256} << 20;  // per thread: a few launches' worth of cores
    std::map<size_t, std::vector<void*>> free_;
    size_t held_ = 0;
};

BlockPool& block_pool() {
    thread_local BlockPool pool;
    return pool;
}

void* zeroed_block(size_t bytes, bool pooled) {
    if (bytes < kMapFrom) return std::calloc(bytes, 1);
    if (pooled && !pool_gone)
        if (void* p = block_pool().take(bytes)) return p;
    void* p =
        mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
}

void free_block(void* p, size_t bytes, bool pooled, size_t dirty) {
    if (!p) return;
    if (bytes < kMapFrom)
        std::free(p);
    else if (pooled && !pool_gone)
        block_pool().give(p, bytes, dirty);
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
    base_ = static_cast<uint8_t*>(zeroed_block(base_bytes_, pooled()));
    written_ = static_cast<uint8_t*>(zeroed_block(written_bytes_, pooled()));
    if (!base_ || !written_) {
        free_block(base_, base_bytes_, pooled(), base_bytes_);
        free_block(written_, written_bytes_, pooled(), written_bytes_);
        throw HostError("cannot allocate " + std::to_string(size) + " bytes of host memory for " + name_);
    }
    auto addr = reinterpret_cast<uintptr_t>(base_);
    data_ = base_ + (alignment - addr % alignment) % alignment;
}

Memory::~Memory() {
    const auto skew = static_cast<size_t>(data_ - base_);
    free_block(base_, base_bytes_, pooled(), skew + peak_);
    free_block(written_, written_bytes_, pooled(), peak_);
}

RaceShadow& Memory::shadow() {
    if (!shadow_) shadow_ = std::make_unique<RaceShadow>();
    return *shadow_;
}

void Memory::reset_shadow() {
    if (shadow_) shadow_->clear();
}

void Memory::shadow_instrs(std::vector<uint64_t>& out) const {
    if (shadow_) shadow_->instrs(out);
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
