#include "evg/hw/memory.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <vector>

#include "evg/hw/error.hpp"
#include "heap_settings.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define EVG_MEMORY_X86 1
#else
#define EVG_MEMORY_X86 0
#endif

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
// tearing down page tables, then page faults to bring them back). A block comes back zeroed: every write to a
// core's local memory notes the pages it touches (Memory::note_touch: the AscendC layer's operands, scalar
// accesses and FixPipe's UB side do), and those pages are cleared with memset; the others are not read.
// Reading them too, to clear a write nobody noted, was a tenth of a property case (mincore, then 4 KiB per
// resident page of every core's L1 and UB at every launch), so the notes are trusted and verified instead:
// a build without NDEBUG (the sanitizer build, which runs the whole suite) verifies every block it is given
// back, another one block in kVerifyEvery, and a page found holding a byte nobody noted stops the process
// with a message naming the memory (a write that bypassed the notes is a bug of the model: it could carry
// one launch's bytes into the next). No page is handed back to the OS: handing back the pages a launch did
// not touch (MADV_DONTNEED) cost a system call per gap and a page fault for each such page the next launch
// touched, a tenth of an upstream corpus case under a hypervisor that makes both dear; a block's resident
// pages are the ones its launches used, and the pool holds at most kMaxHeld bytes of blocks.
#ifdef NDEBUG
constexpr unsigned kVerifyEvery = 64;
#else
constexpr unsigned kVerifyEvery = 1;
#endif
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
    // `dirty`: no byte at or above it was noted as written. When `exact` (the owner wrote every byte of the
    // block itself and knows its extent) only [0, dirty) is cleared: the rest is still as zero as it was
    // handed out. Otherwise `touched`, when given, names the pages below `dirty` that were noted as touched
    // (bit i: page i; none: every page below `dirty`), and those are cleared with memset; the others are
    // checked to be zero when a verification is due (above), `name` naming the memory if one is not.
    void give(void* p, size_t bytes, size_t dirty, bool exact, const std::vector<uint64_t>* touched = nullptr,
              const char* name = "") {
        if (held_ + bytes > kMaxHeld) {
            munmap(p, bytes);
            return;
        }
        if (exact) {
            std::memset(p, 0, std::min(bytes, dirty));
            free_[bytes].push_back(p);
            held_ += bytes;
            return;
        }
        const size_t cleared = std::min(bytes, (dirty + kPage - 1) / kPage * kPage);
        const size_t pages = (bytes + kPage - 1) / kPage,
                     dirty_pages = cleared / kPage + (cleared % kPage != 0);
        const auto to_clear = [&](size_t page) {
            if (page >= dirty_pages) return false;
            if (!touched) return true;
            return page / 64 < touched->size() && (((*touched)[page / 64] >> (page % 64)) & 1) != 0;
        };
        auto* base = static_cast<uint8_t*>(p);
        for (size_t i = 0; i < pages;) {
            const bool clear = to_clear(i);
            size_t j = i + 1;
            while (j < pages && to_clear(j) == clear) ++j;
            if (clear) std::memset(base + i * kPage, 0, std::min(bytes, j * kPage) - i * kPage);
            i = j;
        }
        if (++gives_ % kVerifyEvery == 0) verify_zero(base, bytes, pages, to_clear, name);
        free_[bytes].push_back(p);
        held_ += bytes;
    }

  private:
    // The pages of a block given back that were not cleared, read where they are resident (mincore: reading
    // the others would fault them in): each must be all zero.
    template <class ToClear>
    void verify_zero(const uint8_t* base, size_t bytes, size_t pages, const ToClear& to_clear,
                     const char* name) {
        resident_.resize(pages);
        if (mincore(const_cast<uint8_t*>(base), bytes, resident_.data()) != 0) return;
        for (size_t q = 0; q < pages; ++q) {
            if (to_clear(q) || (resident_[q] & 1) == 0) continue;
            const uint8_t* page = base + q * kPage;
            const size_t n = std::min(kPage, bytes - q * kPage);
            uint64_t any = 0;
            for (size_t i = 0; i < n; ++i) any |= page[i];
            if (any != 0) {
                std::fprintf(stderr,
                             "evgcheck: internal error: bytes of %s in bytes [%zu, %zu) of its storage were "
                             "written without Memory::note_touch, so the storage cannot be reused clean "
                             "(lib/hw/src/memory.cpp)\n",
                             name, q * kPage, q * kPage + n);
                std::abort();
            }
        }
    }

    static constexpr size_t kMaxHeld = size_t{256} << 20;  // per thread: a few launches' worth of cores
    std::vector<unsigned char> resident_;                  // mincore's answer for the block being given back
    std::map<size_t, std::vector<void*>> free_;
    size_t held_ = 0;
    uint64_t gives_ = 0;  // blocks given back with their touched pages: every kVerifyEvery-th is verified
};

BlockPool& block_pool() {
    thread_local BlockPool pool;
    return pool;
}

// GM blocks (not pooled) come from the heap below M_MMAP_THRESHOLD (heap_settings.hpp: the heap is kept
// between launches): a launch's GM is written whole by the host before the kernel runs (its tensors
// are uploaded), so calloc's clearing of a recycled chunk costs a memset of bytes that are used anyway, where
// a fresh mapping costs a page fault per page and an unmapping per buffer. Mapping and unmapping 477 GM
// buffers an upstream corpus pass (54,500 page faults) was a twentieth of its CPU under a hypervisor.
bool from_heap(size_t bytes, bool pooled) {
    return bytes < kMapFrom || (!pooled && bytes < detail::kHeapMmapThreshold);
}

void* zeroed_block(size_t bytes, bool pooled) {
    if (from_heap(bytes, pooled)) return std::calloc(bytes, 1);
    if (pooled && !pool_gone)
        if (void* p = block_pool().take(bytes)) return p;
    void* p =
        mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
}

void free_block(void* p, size_t bytes, bool pooled, size_t dirty, bool exact = false,
                const std::vector<uint64_t>* touched = nullptr, const char* name = "") {
    if (!p) return;
    if (from_heap(bytes, pooled))
        std::free(p);
    else if (pooled && !pool_gone)
        block_pool().give(p, bytes, dirty, exact, touched, name);
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
    const uint64_t chunks = (size_ + kChunk - 1) >> kChunkShift;
    full_.assign((chunks + 63) / 64, 0);
}

Memory::~Memory() {
    const auto skew = static_cast<size_t>(data_ - base_);
    free_block(base_, base_bytes_, pooled(), skew + noted_end_, false, &touched_pages_, name_.c_str());
    // Only Memory writes the flag bytes, and it notes how far (flags_dirty_).
    free_block(written_, written_bytes_, pooled(), flags_dirty_, true);
}

void Memory::note_touch(uint64_t begin, uint64_t end) {
    if (end > peak_) peak_ = end;
    note_pages(begin, end);
}

void Memory::note_pages(uint64_t begin, uint64_t end) {
    if (begin >= end) return;
    if (end > noted_end_) noted_end_ = end;
    const auto skew = static_cast<uint64_t>(data_ - base_);
    const uint64_t first = (skew + begin) / kPage, last = (skew + end - 1) / kPage;
    if (last / 64 >= touched_pages_.size()) touched_pages_.resize(last / 64 + 1, 0);
    for (uint64_t pg = first; pg <= last; ++pg) touched_pages_[pg / 64] |= uint64_t{1} << (pg % 64);
}

uint64_t Memory::chunk_end(uint64_t c) const {
    return std::min(size_, (c + 1) << kChunkShift);
}

void Memory::set_chunk_full(uint64_t c, bool full) {
    const uint64_t bit = uint64_t{1} << (c & 63);
    if (full)
        full_[c >> 6] |= bit;
    else
        full_[c >> 6] &= ~bit;
}

void Memory::unfold_chunk(uint64_t c) {
    if (!chunk_full(c)) return;
    const uint64_t begin = c << kChunkShift;
    flags_dirty_ = std::max(flags_dirty_, chunk_end(c));
    std::memset(written_ + begin, 1, chunk_end(c) - begin);
    set_chunk_full(c, false);
}

void Memory::refold_chunk(uint64_t c) {
    const uint64_t begin = c << kChunkShift, end = chunk_end(c);
    // A chunk filled piece by piece (rows, lanes) has its last or first flag still clear until the piece
    // that completes it: those two bytes settle most calls without scanning the chunk.
    const bool full = written_[begin] != 0 && written_[end - 1] != 0 &&
                      std::memchr(written_ + begin, 0, end - begin) == nullptr;
    set_chunk_full(c, full);
}

void Memory::mark_written(uint64_t offset, uint64_t bytes, bool value) {
    if (!contains(offset, bytes) || bytes == 0) return;
    const uint64_t end = offset + bytes;
    // The chunks the range covers whole, [whole_begin, whole_end), are a run of bits; at most two partial
    // chunks (at the ends) go byte by byte.
    const uint64_t whole_begin = (offset + kChunk - 1) >> kChunkShift;
    const uint64_t whole_end = end == size_ ? (end + kChunk - 1) >> kChunkShift : end >> kChunkShift;
    const auto partial = [&](uint64_t c) {
        const uint64_t lo = std::max(offset, c << kChunkShift), hi = std::min(end, chunk_end(c));
        if (value) {
            if (chunk_full(c)) return;
            flags_dirty_ = std::max(flags_dirty_, hi);
            std::memset(written_ + lo, 1, hi - lo);
            refold_chunk(c);
        } else {
            unfold_chunk(c);
            flags_dirty_ = std::max(flags_dirty_, hi);
            std::memset(written_ + lo, 0, hi - lo);
        }
    };
    if (whole_begin >= whole_end) {  // no whole chunk: one or two partial ones
        for (uint64_t c = offset >> kChunkShift; c <= (end - 1) >> kChunkShift; ++c) partial(c);
        return;
    }
    if (offset < (whole_begin << kChunkShift)) partial(whole_begin - 1);
    set_chunks_full(whole_begin, whole_end, value);
    if (!value) {  // unwritten whole chunks: their bytes become authoritative, all zero
        const uint64_t lo = whole_begin << kChunkShift, hi = std::min(size_, whole_end << kChunkShift);
        flags_dirty_ = std::max(flags_dirty_, hi);
        std::memset(written_ + lo, 0, hi - lo);
    }
    if ((whole_end << kChunkShift) < end) partial(whole_end);
}

void Memory::set_chunks_full(uint64_t begin, uint64_t end, bool full) {
    while (begin < end) {
        const uint64_t word = begin >> 6, first = begin & 63;
        const uint64_t last =
            std::min<uint64_t>(64, first + (end - begin));  // bits [first, last) of the word
        const uint64_t mask =
            (last == 64 ? ~uint64_t{0} : (uint64_t{1} << last) - 1) & ~((uint64_t{1} << first) - 1);
        if (full)
            full_[word] |= mask;
        else
            full_[word] &= ~mask;
        begin += last - first;
    }
}

bool Memory::all_written(uint64_t offset, uint64_t bytes) const {
    return first_unwritten(offset, bytes) < 0;
}

int64_t Memory::first_unwritten(uint64_t offset, uint64_t bytes) const {
    if (!contains(offset, bytes)) return static_cast<int64_t>(offset);
    if (bytes == 0) return -1;
    const uint64_t end = offset + bytes, last = (end - 1) >> kChunkShift;
    for (uint64_t c = offset >> kChunkShift; c <= last; ++c) {
        if ((c & 63) == 0 && c + 63 <= last && full_[c >> 6] == ~uint64_t{0}) {
            c += 63;  // 64 written chunks
            continue;
        }
        if (chunk_full(c)) continue;
        const uint64_t lo = std::max(offset, c << kChunkShift), hi = std::min(end, chunk_end(c));
        if (const void* z = std::memchr(written_ + lo, 0, hi - lo))
            return static_cast<const uint8_t*>(z) - written_;
    }
    return -1;
}

void Memory::read_written(uint64_t offset, uint64_t bytes, uint8_t* out) const {
    if (!contains(offset, bytes)) {
        std::memset(out, 0, bytes);
        return;
    }
    if (bytes == 0) return;
    const uint64_t end = offset + bytes;
    for (uint64_t c = offset >> kChunkShift; c <= (end - 1) >> kChunkShift; ++c) {
        const uint64_t lo = std::max(offset, c << kChunkShift), hi = std::min(end, chunk_end(c));
        if (chunk_full(c))
            std::memset(out + (lo - offset), 1, hi - lo);
        else
            std::memcpy(out + (lo - offset), written_ + lo, hi - lo);
    }
}

uint8_t* Memory::unfolded_written(uint64_t offset, uint64_t bytes) {
    if (contains(offset, bytes)) flags_dirty_ = std::max(flags_dirty_, offset + bytes);  // the caller writes
    if (contains(offset, bytes) && bytes != 0)
        for (uint64_t c = offset >> kChunkShift; c <= (offset + bytes - 1) >> kChunkShift; ++c)
            unfold_chunk(c);
    return written_ + offset;
}

void Memory::refold_written(uint64_t offset, uint64_t bytes) {
    if (!contains(offset, bytes) || bytes == 0) return;
    for (uint64_t c = offset >> kChunkShift; c <= (offset + bytes - 1) >> kChunkShift; ++c)
        if (!chunk_full(c)) refold_chunk(c);
}

void Memory::copy_written(uint64_t offset, Memory& src, uint64_t src_offset, uint64_t bytes) {
    if (!contains(offset, bytes) || !src.contains(src_offset, bytes) || bytes == 0) return;
    if (src.first_unwritten(src_offset, bytes) < 0) {
        mark_written(offset, bytes, true);
        return;
    }
    const uint8_t* from = src.unfolded_written(src_offset, bytes);
    uint8_t* to = unfolded_written(offset, bytes);
    std::memmove(to, from, bytes);
    refold_written(offset, bytes);
    src.refold_written(src_offset, bytes);
}

namespace {

constexpr uint64_t kStreams = 4;          // interleaved streams of a large copy
constexpr uint64_t kStreamStep = 64;      // bytes per stream per step: one cache line
constexpr uint64_t kStreamedFrom = 4096;  // smaller copies go to memmove whole

#if EVG_MEMORY_X86
[[gnu::target("avx")]] void copy_streams(uint8_t* dst, const uint8_t* src, uint64_t part) {
    for (uint64_t i = 0; i < part; i += kStreamStep)
        for (uint64_t k = 0; k < kStreams; ++k) {
            const uint8_t* s = src + k * part + i;
            uint8_t* d = dst + k * part + i;
            const __m256 a = _mm256_loadu_ps(reinterpret_cast<const float*>(s));
            const __m256 b = _mm256_loadu_ps(reinterpret_cast<const float*>(s + 32));
            _mm256_storeu_ps(reinterpret_cast<float*>(d), a);
            _mm256_storeu_ps(reinterpret_cast<float*>(d + 32), b);
        }
}
bool has_avx() {
    static const bool has = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx") != 0;
    }();
    return has;
}
#endif

}  // namespace

void move_bytes(uint8_t* dst, const uint8_t* src, uint64_t bytes) {
#if EVG_MEMORY_X86
    const auto d = reinterpret_cast<uintptr_t>(dst), s = reinterpret_cast<uintptr_t>(src);
    const bool disjoint = d + bytes <= s || s + bytes <= d;
    if (bytes >= kStreamedFrom && disjoint && has_avx()) {
        const uint64_t part = bytes / kStreams / kStreamStep * kStreamStep;
        copy_streams(dst, src, part);
        std::memcpy(dst + kStreams * part, src + kStreams * part, bytes - kStreams * part);
        return;
    }
#endif
    std::memmove(dst, src, bytes);
}

}  // namespace evg::hw
