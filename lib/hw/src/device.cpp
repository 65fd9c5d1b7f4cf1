#include "evg/hw/device.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "evg/hw/error.hpp"
#include "heap_settings.hpp"

namespace evg::hw {

namespace {

// glibc's heap, set once per process when its first device is made: blocks up to 32 MiB (glibc's own ceiling
// for the threshold it otherwise moves by itself) come from the heap rather than from a mapping of their
// own, and the heap hands its top back to the OS only past 64 MiB free. A launch, its oracle and its judge
// allocate and free the same large buffers case after case (tensors, traces, the oracle's long doubles):
// with glibc's defaults each was mapped or the heap grown for it, and every page faulted in again, a fifth
// of an upstream corpus case (bench/README.md, "System calls and page faults"). The process keeps up to its
// largest case's memory. Settings the user gave (GLIBC_TUNABLES naming glibc.malloc) are left as they are.
void keep_heap_between_launches() {
#if defined(__GLIBC__)
    static std::once_flag once;
    std::call_once(once, [] {
        const char* tunables = std::getenv("GLIBC_TUNABLES");
        if (tunables && std::strstr(tunables, "glibc.malloc.")) return;
        mallopt(M_MMAP_THRESHOLD, static_cast<int>(detail::kHeapMmapThreshold));
        mallopt(M_TRIM_THRESHOLD, static_cast<int>(detail::kHeapTrimThreshold));
    });
#endif
}

}  // namespace

Device::Device(Config cfg) : cfg_(std::move(cfg)) {
    keep_heap_between_launches();
}
Device::~Device() = default;

void* Device::malloc(uint64_t bytes, std::string name, std::string origin) {
    if (bytes == 0) throw HostError("aclrtMalloc: a GM allocation of 0 bytes is not allowed");
    if (name.empty()) name = fmt::format("GM#{}", alloc_count_ + 1);
    // Two live buffers of one name (a loop's allocations) are told apart.
    for (int n = 2;; ++n) {
        bool taken = false;
        for (const auto& [base, m] : gm_) taken |= m->name() == name;
        if (!taken) break;
        if (n > 2) name.erase(name.rfind('#'));
        name += fmt::format("#{}", n);
    }
    auto mem = std::make_unique<Memory>(MemKind::GM, std::move(name), bytes, 512);
    mem->set_origin(std::move(origin));
    ++alloc_count_;
    void* p = mem->data();
    gm_.emplace(reinterpret_cast<uintptr_t>(p), std::move(mem));
    return p;
}

bool Device::free(void* p) {
    return gm_.erase(reinterpret_cast<uintptr_t>(p)) > 0;
}

void Device::set_name(void* p, std::string name) {
    auto r = find(p);
    if (!r) throw HostError("set_name: pointer is not inside a GM allocation");
    r->mem->set_name(std::move(name));
}

std::optional<Device::GmRef> Device::find(const void* p) const {
    auto a = reinterpret_cast<uintptr_t>(p);
    auto it = gm_.upper_bound(a);
    if (it == gm_.begin()) return std::nullopt;
    --it;
    uint64_t off = a - it->first;
    if (off >= it->second->size()) return std::nullopt;
    return GmRef{it->second.get(), off};
}

std::string Device::place_of_stray(const void* p) const {
    if (gm_.empty()) return "outside every GM allocation (there is none)";
    const auto a = reinterpret_cast<uintptr_t>(p);
    const auto brief = [](const Memory& m) {
        return fmt::format("{} ({} bytes{})", m.name(), m.size(),
                           m.origin().empty() ? "" : ", " + m.origin());
    };
    auto above = gm_.upper_bound(a);
    std::string text;
    if (above != gm_.begin()) {
        auto below = std::prev(above);
        const uint64_t past = a - below->first - below->second->size();
        text = fmt::format("{} bytes past the end of {}", past, brief(*below->second));
    }
    if (above != gm_.end()) {
        const uint64_t before = above->first - a;
        if (text.empty() || before < a - std::prev(above)->first)
            text = fmt::format("{} bytes before the start of {}", before, brief(*above->second));
    }
    return text;
}

namespace {
// Whether `text` names `name` as a whole word (deviceX, not deviceXY).
bool mentions(const std::string& text, const std::string& name) {
    const auto word = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '#';
    };
    for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
        const size_t end = at + name.size();
        if ((at == 0 || !word(text[at - 1])) && (end == text.size() || !word(text[end]))) return true;
    }
    return false;
}
}  // namespace

void Device::name_buffers(Report& r) const {
    r.buffers.clear();
    for (const auto& [base, m] : gm_) {
        bool named = false;
        for (const Violation& v : r.violations) {
            named |= mentions(v.message, m->name());
            for (const Location& l : v.locations) named |= l.memory == m->name();
        }
        if (named) r.buffers.push_back({m->name(), m->size(), m->origin()});
    }
}

namespace {
// Why a host copy's device range [p, p + bytes) is not inside one allocation, naming the buffer it starts in.
std::string stray_range(const Device& d, const void* p, uint64_t bytes) {
    const auto r = d.find(p);
    if (!r) return fmt::format("it starts {}", d.place_of_stray(p));
    const Memory& m = *r->mem;
    return fmt::format("bytes [{}, {}) of {} ({} bytes{}) end past it", r->offset, r->offset + bytes,
                       m.name(), m.size(), m.origin().empty() ? "" : ", " + m.origin());
}
}  // namespace

void Device::copy_to_device(void* dst, const void* src, uint64_t bytes) {
    if (bytes == 0) return;
    auto r = find(dst);
    if (!r || !r->mem->contains(r->offset, bytes))
        throw HostError(
            fmt::format("aclrtMemcpy host-to-device: the destination range of {} bytes is not inside "
                        "one GM allocation: {}",
                        bytes, stray_range(*this, dst, bytes)));
    std::memcpy(r->mem->data() + r->offset, src, bytes);
    r->mem->mark_written(r->offset, bytes);
}

void Device::copy_to_host(void* dst, const void* src, uint64_t bytes) {
    if (bytes == 0) return;
    auto r = find(src);
    if (!r || !r->mem->contains(r->offset, bytes))
        throw HostError(
            fmt::format("aclrtMemcpy device-to-host: the source range of {} bytes is not inside one "
                        "GM allocation: {}",
                        bytes, stray_range(*this, src, bytes)));
    std::memcpy(dst, r->mem->data() + r->offset, bytes);
}

namespace {
std::atomic<uint64_t> g_launches{0}, g_launched_instructions{0};
}  // namespace

Device::ProcessLaunches Device::process_launches() {
    return {g_launches.load(std::memory_order_relaxed),
            g_launched_instructions.load(std::memory_order_relaxed)};
}

const Report& Device::launch(int block_dim, KernelType type, const std::function<void()>& kernel) {
    return launch(block_dim, type, kernel, cfg_.arch);
}

const Report& Device::launch(int block_dim, KernelType type, const std::function<void()>& kernel,
                             ArchId arch) {
    if (block_dim <= 0 || block_dim > 4096)
        throw HostError(fmt::format("kernel launch: blockDim {} is outside 1..4096", block_dim));
    // The happens-before clocks hold one entry per pipe of every core, at every pipe of every core: their
    // size grows with the square of the core count. Refuse a launch whose clocks alone would not fit in
    // memory.
    {
        uint64_t cores = (type == KernelType::aiv_only ? 0u : 1u) * static_cast<uint64_t>(block_dim) +
                         (type == KernelType::aic_only      ? 0u
                          : type == KernelType::mix_aic_1_2 ? 2u
                                                            : 1u) *
                             static_cast<uint64_t>(block_dim);
        uint64_t agents = cores * kPipeSlots;
        uint64_t clock_bytes = cores * (kPipeSlots + 1) * agents * sizeof(uint32_t);
        constexpr uint64_t kClockLimit = uint64_t{4} << 30;
        if (clock_bytes > kClockLimit)
            throw HostError(fmt::format(
                "kernel launch: blockDim {} gives {} cores, whose happens-before clocks need {:.1f} GiB (the "
                "model's limit is {} GiB; they grow with the square of the core count): launch fewer blocks",
                block_dim, cores, static_cast<double>(clock_bytes) / (1u << 30), kClockLimit >> 30));
    }
    Config cfg = cfg_;
    cfg.arch = arch;
    Machine m(*this, cfg, block_dim, type);
    last_ = m.run(kernel);
    g_launches.fetch_add(1, std::memory_order_relaxed);
    g_launched_instructions.fetch_add(last_.stats.instructions, std::memory_order_relaxed);
    name_buffers(last_);
    last_trace_ = m.take_trace();
    last_records_peak_ = m.records_peak();
    return last_;
}

namespace {
// One device per thread: `evgcheck conformance --jobs N` runs cases on N threads, each launching kernels on
// its own device (a launch runs its cores as fibers on the launching thread, so every AscendC call of a
// kernel finds the device of the thread that launched it).
std::unique_ptr<Device>& device_slot() {
    thread_local std::unique_ptr<Device> d;
    return d;
}
}  // namespace

Device& device() {
    auto& d = device_slot();
    if (!d) d = std::make_unique<Device>();
    return *d;
}

Device& reset_device(Config cfg) {
    device_slot() = std::make_unique<Device>(std::move(cfg));
    return *device_slot();
}

}  // namespace evg::hw
