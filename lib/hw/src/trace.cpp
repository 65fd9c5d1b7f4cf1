// The process-wide (op, site) table and the trace container (trace.hpp).
#include "evg/hw/trace.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace evg::hw {

namespace {

// A key by content: the file of a Site is compared by its text, not its address, so a table entry never
// depends on the lifetime of the caller's string.
struct OpSiteKey {
    std::string_view op, file;
    uint32_t line = 0;
    bool operator==(const OpSiteKey&) const = default;
};

struct OpSiteHash {
    size_t operator()(const OpSiteKey& k) const {
        size_t h = std::hash<std::string_view>{}(k.op);
        h ^= std::hash<std::string_view>{}(k.file) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        return h ^ (k.line * 0x9e3779b1u);
    }
};

// The per-thread cache's key: the file by address.
struct SiteKey {
    std::string_view op;
    const char* file = nullptr;
    uint32_t line = 0;
    bool operator==(const SiteKey&) const = default;
};

struct SiteHash {
    size_t operator()(const SiteKey& k) const {
        size_t h = std::hash<std::string_view>{}(k.op);
        h ^= std::hash<const char*>{}(k.file) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        return h ^ (k.line * 0x9e3779b1u);
    }
};

struct OpSite {
    std::string_view op, file;  // in the table's arena; file is followed by a NUL
    uint32_t line = 0;
};

// Entries never move once written: a reader holding an id reads its chunk without a lock (chunk pointers are
// published with release/acquire; an id reaches a reader only after its entry was written).
class OpSiteTable {
  public:
    static constexpr size_t kChunkBits = 10, kChunk = size_t{1} << kChunkBits, kMaxChunks = 4096;

    OpSiteTable() { intern_locked({"", "", 0}); }
    ~OpSiteTable() {
        for (auto& c : chunks_) delete[] c.load(std::memory_order_relaxed);
    }
    OpSiteTable(const OpSiteTable&) = delete;
    OpSiteTable& operator=(const OpSiteTable&) = delete;

    uint32_t intern(const OpSiteKey& k) {
        std::lock_guard lock(mu_);
        if (auto it = index_.find(k); it != index_.end()) return it->second;
        return intern_locked(k);
    }
    const OpSite& at(uint32_t id) const {
        const OpSite* c = chunks_[id >> kChunkBits].load(std::memory_order_acquire);
        return c[id & (kChunk - 1)];
    }
    size_t size() {
        std::lock_guard lock(mu_);
        return size_;
    }

  private:
    uint32_t intern_locked(const OpSiteKey& k) {
        const size_t id = size_;
        const size_t chunk = id >> kChunkBits;
        if (chunk >= kMaxChunks)
            throw std::length_error("evg::hw: more than 4 Mi distinct (instruction, source position) pairs");
        OpSite* c = chunks_[chunk].load(std::memory_order_relaxed);
        if (!c) {
            c = new OpSite[kChunk];
            chunks_[chunk].store(c, std::memory_order_release);
        }
        OpSite& e = c[id & (kChunk - 1)];
        e.op = keep(k.op);
        e.file = keep(k.file);
        e.line = k.line;
        ++size_;
        // The key views the stored strings, which never move.
        index_.emplace(OpSiteKey{e.op, e.file, e.line}, static_cast<uint32_t>(id));
        return static_cast<uint32_t>(id);
    }

    // The text of the entries and the index's nodes, in an arena that grows by doubling blocks: the table
    // only grows, and a new entry costs no allocation of its own (a fuzz session interns new pairs all along,
    // and libFuzzer re-runs, with a leak check, every input that allocated more than it freed).
    std::string_view keep(std::string_view text) {
        auto* p = static_cast<char*>(arena_.allocate(text.size() + 1, 1));
        std::memcpy(p, text.data(), text.size());
        p[text.size()] = '\0';
        return {p, text.size()};
    }

    std::mutex mu_;
    std::pmr::monotonic_buffer_resource arena_{size_t{64} << 10};
    std::pmr::unordered_map<OpSiteKey, uint32_t, OpSiteHash> index_{&arena_};
    std::array<std::atomic<OpSite*>, kMaxChunks> chunks_{};
    size_t size_ = 0;
};

OpSiteTable& table() {
    static OpSiteTable* t = new OpSiteTable();  // never destroyed: records may be read during exit
    return *t;
}

}  // namespace

uint32_t intern_op_site(std::string_view op, Site site) {
    // Every instruction interns its (op, site): a per-thread cache keeps the shared table's lock off that
    // path. It knows a file by its address (a Site's file is a __builtin_FILE literal or a string of this
    // table, never rewritten), so a hit neither measures nor hashes the path; the shared table compares by
    // text, so a file named at two addresses still gets one id. The cache's op views the table's string.
    //
    // In front of the cache's map, a direct-mapped array indexed without reading the whole op: a hit costs a
    // few loads and one short compare instead of hashing the op's text (a kernel's loop reissues the same
    // few pairs over and over).
    // (An empty slot's key is the empty op at line 0 of no file, which is table entry 0, so even that hit
    // is right.)
    struct Recent {
        SiteKey key;
        uint32_t id = 0;
    };
    constexpr unsigned kRecentBits = 8;
    thread_local std::array<Recent, size_t{1} << kRecentBits> recent{};
    thread_local std::pmr::monotonic_buffer_resource cache_arena{size_t{16} << 10};
    thread_local std::pmr::unordered_map<SiteKey, uint32_t, SiteHash> cache{&cache_arena};
    uint64_t tail = 0;  // the op's last (up to) eight bytes
    if (!op.empty())
        std::memcpy(&tail, op.data() + op.size() - std::min<size_t>(op.size(), 8),
                    std::min<size_t>(op.size(), 8));
    const uint64_t mix =
        (reinterpret_cast<uintptr_t>(site.file) ^ (uint64_t{site.line} << 20) ^ op.size() ^ tail) *
        0x9e3779b97f4a7c15ULL;
    Recent& r = recent[mix >> (64 - kRecentBits)];
    const SiteKey key{op, site.file, site.line};
    if (r.key == key) return r.id;
    if (auto it = cache.find(key); it != cache.end()) {
        r = {it->first, it->second};
        return it->second;
    }
    const uint32_t id =
        table().intern({op, site.file ? std::string_view(site.file) : std::string_view(), site.line});
    const SiteKey stored{table().at(id).op, site.file, site.line};
    cache.emplace(stored, id);
    r = {stored, id};
    return id;
}

std::string_view interned_op(uint32_t id) {
    return table().at(id).op;
}

Site interned_site(uint32_t id) {
    const OpSite& e = table().at(id);
    return {e.file.data(), e.line};
}

size_t interned_op_sites() {
    return table().size();
}

Trace::Trace(std::initializer_list<TraceEntry> entries) {
    for (const auto& e : entries) push_back(e);
}

void Trace::push_back(const TraceEntry& e) {
    if (chunks_.empty() || chunks_.back().size() == kChunk) {
        chunks_.emplace_back();
        // The first chunk grows as a vector does (most traces are short); later ones are allocated whole.
        if (chunks_.size() > 1) chunks_.back().reserve(kChunk);
    }
    chunks_.back().push_back(e);
    ++size_;
}

void Trace::push_back(const TraceEntry& e, std::span<const TraceAccess> accesses) {
    access_end_.resize(size_, accesses_.size());
    push_back(e);
    accesses_.insert(accesses_.end(), accesses.begin(), accesses.end());
    access_end_.push_back(accesses_.size());
}

std::span<const TraceAccess> Trace::accesses(size_t i) const {
    if (i >= access_end_.size()) return {};
    const size_t b = i ? access_end_[i - 1] : 0;
    return {accesses_.data() + b, access_end_[i] - b};
}

void Trace::clear() {
    chunks_.clear();
    size_ = 0;
    accesses_.clear();
    access_end_.clear();
}

}  // namespace evg::hw
