// Call chains (call_chain.hpp): captured with the unwinder, interned, and resolved in this process with GCC's
// libbacktrace (the debug information of every loaded module, read once per state), once per address.
#include "evg/hw/call_chain.hpp"

#include <backtrace.h>
#include <cxxabi.h>
#include <dlfcn.h>
#include <link.h>
#include <unwind.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <span>
#include <string_view>
#include <unordered_map>

namespace evg::hw {

namespace {

constexpr int kMaxFrames = 64;

struct Chains {
    std::mutex mutex;
    std::unordered_map<std::string, uint32_t> ids;  // the addresses' bytes -> id
    std::vector<std::vector<uintptr_t>> stacks;     // by id - 1
    std::map<uintptr_t, std::vector<ChainFrame>> resolved;
};
Chains& chains() {
    static Chains c;
    return c;
}

struct Walk {
    std::array<uintptr_t, kMaxFrames> pc{};
    int n = 0;
};

_Unwind_Reason_Code on_frame(_Unwind_Context* ctx, void* arg) {
    auto* w = static_cast<Walk*>(arg);
    const uintptr_t pc = _Unwind_GetIP(ctx);
    if (pc == 0) return _URC_END_OF_STACK;
    w->pc[static_cast<size_t>(w->n++)] = pc;
    return w->n == kMaxFrames ? _URC_END_OF_STACK : _URC_NO_REASON;
}

bool env_allows() {
    const char* v = std::getenv("EVG_CALL_CHAIN");
    return !(v && std::strcmp(v, "0") == 0);
}

// The system's libraries (the C library's frames under a fiber's entry, the C++ library's std::function): no
// line of theirs is the user's or Catlass's, and their frames are left out without asking.
bool system_module(const char* path) {
    const std::string_view p = path;
    return p.starts_with("/lib/") || p.starts_with("/lib64/") || p.starts_with("/usr/lib/") ||
           p.starts_with("/usr/lib64/");
}

// Whether the code address `pc` lies in a system library (dladdr names its module).
bool in_system_module(uintptr_t pc) {
    Dl_info info{};
    // dladdr asks for an address as a pointer; pc is a code address the unwinder gave as an integer.
    void* const code = reinterpret_cast<void*>(pc);  // NOLINT(performance-no-int-to-ptr)
    return dladdr(code, &info) != 0 && info.dli_fname && system_module(info.dli_fname);
}

// The modules loaded so far, as the loader counts them (objects added and removed since the start): a
// libbacktrace state knows the modules loaded when it first read them, so a library loaded since (a corpus
// library the runner opens with dlopen) needs a state of its own.
uint64_t module_generation() {
    uint64_t generation = 0;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t size, void* out) {
            if (size >= offsetof(dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs))
                *static_cast<uint64_t*>(out) = (info->dlpi_adds << 32) ^ info->dlpi_subs;
            return 1;  // the counters are the same in every entry: the first is enough
        },
        &generation);
    return generation;
}

// libbacktrace's state for the modules loaded now (states are never freed: libbacktrace keeps no way to).
// The caller holds Chains::mutex.
backtrace_state* backtrace_for_now() {
    static backtrace_state* state = nullptr;
    static uint64_t generation = 0;
    const uint64_t now = module_generation();
    if (!state || now != generation) {
        state = backtrace_create_state(
            nullptr, /*threaded=*/1, [](void*, const char*, int) {}, nullptr);
        generation = now;
    }
    return state;
}

std::string demangled(const char* name) {
    int status = 0;
    char* d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    std::string out = status == 0 && d ? d : name;
    std::free(d);
    return out;
}

// The frames at code address `pc` (a byte inside a call), innermost first, each inlined call its own frame;
// frames without a source line left out.
std::vector<ChainFrame> frames_at(backtrace_state* state, uintptr_t pc) {
    std::vector<ChainFrame> out;
    backtrace_pcinfo(
        state, pc,
        [](void* data, uintptr_t, const char* file, int line, const char* function) {
            if (file && *file && line > 0)
                static_cast<std::vector<ChainFrame>*>(data)->push_back({file, static_cast<uint32_t>(line),
                                                                        function ? demangled(function) : "",
                                                                        path_owner(file)});
            return 0;
        },
        [](void*, const char*, int) {}, &out);
    return out;
}

std::atomic<ChainNodeNamer> g_chain_node_namer{nullptr};

}  // namespace

void set_chain_node_namer(ChainNodeNamer namer) {
    g_chain_node_namer.store(namer, std::memory_order_relaxed);
}

ChainNodeNamer chain_node_namer() {
    return g_chain_node_namer.load(std::memory_order_relaxed);
}

bool call_chains_on() noexcept {
    static const bool allowed = env_allows();
    return allowed && code_dirs_registered();
}

uint32_t capture_call_chain() {
    if (!call_chains_on()) return 0;
    Walk w;
    _Unwind_Backtrace(&on_frame, &w);
    // The first frames are this function's callers inside the model, the same on every capture: kept, since
    // they resolve to evgcheck's own files, which call_chain_frames' readers skip.
    const std::string key(reinterpret_cast<const char*>(w.pc.data()),
                          static_cast<size_t>(w.n) * sizeof(uintptr_t));
    Chains& c = chains();
    const std::lock_guard lock(c.mutex);
    auto [it, fresh] = c.ids.emplace(key, static_cast<uint32_t>(c.stacks.size() + 1));
    if (fresh) c.stacks.emplace_back(w.pc.begin(), w.pc.begin() + w.n);
    return it->second;
}

std::string ChainFrame::str() const {
    return Site{file.c_str(), line}.str();
}

namespace {
// Resolves the addresses of chains `ids` not resolved yet (the caller holds the mutex).
void resolve_locked(Chains& c, std::span<const uint32_t> ids) {
    backtrace_state* state = nullptr;
    for (const uint32_t id : ids) {
        if (id == 0 || id > c.stacks.size()) continue;
        for (uintptr_t pc : c.stacks[id - 1]) {
            if (c.resolved.contains(pc)) continue;
            // A return address is the instruction after the call: look up the byte before it, inside the
            // call.
            if (in_system_module(pc - 1)) {
                c.resolved.emplace(pc, std::vector<ChainFrame>{});
                continue;
            }
            if (!state) state = backtrace_for_now();
            c.resolved.emplace(pc, frames_at(state, pc - 1));
        }
    }
}
}  // namespace

std::string first_user_site(uint32_t id) {
    for (const ChainFrame& f : call_chain_frames(id))
        if (f.owner == SiteOwner::user) return f.str();
    return {};
}

void resolve_call_chains(std::span<const uint32_t> ids) {
    Chains& c = chains();
    const std::lock_guard lock(c.mutex);
    resolve_locked(c, ids);
}

std::vector<ChainFrame> call_chain_frames(uint32_t id) {
    Chains& c = chains();
    const std::lock_guard lock(c.mutex);
    if (id == 0 || id > c.stacks.size()) return {};
    resolve_locked(c, std::span<const uint32_t>(&id, 1));
    std::vector<ChainFrame> out;
    for (uintptr_t pc : c.stacks[id - 1])
        for (const ChainFrame& f : c.resolved[pc]) out.push_back(f);
    return out;
}

}  // namespace evg::hw
