// Call chains (call_chain.hpp): captured with the unwinder, interned, and resolved in this process, once per
// address: with GCC's libbacktrace (the debug information of every loaded module, read once per state), and
// with elfutils' libdw where libbacktrace finds no line.
//
// Why two: libbacktrace finds an address's compilation unit by a binary search over address ranges that it
// merges when they touch, and a unit's merged range can then hold other units' ranges (the copies of inline
// functions the linker kept elsewhere), so the search misses: in a GCC -O0 build every Catlass frame (inline
// functions of headers) was lost. libdw's own unit lookup asks .debug_aranges, which Clang does not write,
// and Clang compiles a program's kernel by default; the fallback below reads each unit's own ranges instead
// and asks every unit that holds the address. libbacktrace stays first because libdw (0.188)
// misses the inlined calls of Clang's optimised kernels: 27 of 40 call sites sampled in a Clang-built user
// program kept only their innermost frame under dwarf_getscopes, where libbacktrace gave the whole chain (the
// inlined calls there have DW_FORM_rnglistx ranges; why libdw does not find them was not pinned down).
#include "evg/hw/call_chain.hpp"

#include <backtrace.h>
#include <cxxabi.h>
#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <link.h>
#include <unistd.h>
#include <unwind.h>

#include <algorithm>
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
// library the runner opens with dlopen) needs a state of its own, and libdw's session a new report.
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
    if (!name) return {};
    int status = 0;
    char* d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    std::string out = status == 0 && d ? d : name;
    std::free(d);
    return out;
}

// The frames at code address `pc` (a byte inside a call), innermost first, each inlined call its own frame;
// frames without a source line left out.
std::vector<ChainFrame> libbacktrace_frames(backtrace_state* state, uintptr_t pc) {
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

// A module's compilation units by address, read from each unit's own ranges (DW_AT_low_pc/high_pc or
// DW_AT_ranges). Not libdw's dwfl_module_addrdie: it asks .debug_aranges, which Clang does not write, so a
// program whose kernel Clang compiled (the default) would resolve none of the kernel's frames.
struct UnitRange {
    Dwarf_Addr low = 0, high = 0;  // the module's own addresses (without its load bias)
    Dwarf_Off die = 0;             // the unit DIE's offset
};
struct ModuleUnits {
    Dwarf* dwarf = nullptr;
    Dwarf_Addr bias = 0;
    std::vector<UnitRange> ranges;  // by low
};

ModuleUnits read_units(Dwfl_Module* module) {
    ModuleUnits m;
    m.dwarf = dwfl_module_getdwarf(module, &m.bias);
    if (!m.dwarf) return m;
    Dwarf_CU* unit = nullptr;
    Dwarf_Die die;
    while (dwarf_get_units(m.dwarf, unit, &unit, nullptr, nullptr, &die, nullptr) == 0) {
        Dwarf_Addr base = 0, low = 0, high = 0;
        for (ptrdiff_t at = 0; (at = dwarf_ranges(&die, at, &base, &low, &high)) > 0;)
            if (low < high && low != 0) m.ranges.push_back({low, high, dwarf_dieoffset(&die)});
    }
    std::sort(m.ranges.begin(), m.ranges.end(),
              [](const UnitRange& a, const UnitRange& b) { return a.low < b.low; });
    return m;
}

// The units read of each module of libdw's session, dropped when the session reports its modules again.
std::map<Dwfl_Module*, ModuleUnits>& units_read() {
    static std::map<Dwfl_Module*, ModuleUnits> read;
    return read;
}

// libdw's session over the modules loaded now: reported again when the loader's count changed (modules gone
// are dropped), so that a library loaded since (a corpus library the runner opens with dlopen) resolves. Null
// when /proc/self/maps cannot be read. The caller holds Chains::mutex.
Dwfl* dwfl_for_now() {
    static const Dwfl_Callbacks callbacks = {
        .find_elf = dwfl_linux_proc_find_elf,
        .find_debuginfo = dwfl_standard_find_debuginfo,
        .section_address = nullptr,
        .debuginfo_path = nullptr,
    };
    static Dwfl* dwfl = nullptr;  // never freed: it lives as long as the chains it resolves
    static uint64_t generation = 0;
    static bool reported = false;
    const uint64_t now = module_generation();
    if (!dwfl) dwfl = dwfl_begin(&callbacks);
    if (!dwfl) return nullptr;
    if (!reported || now != generation) {
        units_read().clear();     // a module reported again may be a new object at an old address
        dwfl_report_begin(dwfl);  // modules reported again are kept with what was read of them
        reported = dwfl_linux_proc_report(dwfl, getpid()) == 0;
        dwfl_report_end(dwfl, nullptr, nullptr);
        generation = now;
    }
    return reported ? dwfl : nullptr;
}

// A function's name for a subprogram or inlined-call DIE: its linkage name demangled (the abstract origin's
// for an inlined call), else its plain name.
std::string function_name(Dwarf_Die* die) {
    Dwarf_Attribute attr;
    const char* name = nullptr;
    if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr)) name = dwarf_formstring(&attr);
    if (!name && dwarf_attr_integrate(die, DW_AT_name, &attr)) name = dwarf_formstring(&attr);
    return demangled(name);
}

// The chain of function scopes around code address `pc`, innermost first: the subprogram alone, or the
// innermost inlined call and its concrete parents up to the subprogram that holds it (dwarf_getscopes follows
// an inlined call's abstract origin instead, which has no callers). Empty without debug information.
std::vector<Dwarf_Die> function_scopes(Dwarf_Die* cu, Dwarf_Addr pc) {
    std::vector<Dwarf_Die> out;
    Dwarf_Die* scopes = nullptr;
    int n = dwarf_getscopes(cu, pc, &scopes);
    for (int i = 0; i < n; ++i) {
        const int tag = dwarf_tag(&scopes[i]);
        if (tag == DW_TAG_subprogram) {
            out.push_back(scopes[i]);
            break;
        }
        if (tag != DW_TAG_inlined_subroutine) continue;
        Dwarf_Die inlined = scopes[i];
        std::free(scopes);
        scopes = nullptr;
        n = dwarf_getscopes_die(&inlined, &scopes);
        for (int k = 0; k < n; ++k) {
            const int t = dwarf_tag(&scopes[k]);
            if (t == DW_TAG_inlined_subroutine || t == DW_TAG_subprogram) out.push_back(scopes[k]);
            if (t == DW_TAG_subprogram) break;
        }
        break;
    }
    std::free(scopes);
    return out;
}

// The module's units, read once (the caller holds Chains::mutex; modules live as long as the session).
const ModuleUnits& units_of(Dwfl_Module* module) {
    std::map<Dwfl_Module*, ModuleUnits>& read = units_read();
    auto it = read.find(module);
    if (it == read.end()) it = read.emplace(module, read_units(module)).first;
    return it->second;
}

// libbacktrace_frames' answer from elfutils' libdw, for an address libbacktrace found no line for: the same
// frames (the line table's line for the innermost, each inlined call's call site for its caller; frames
// without a source line left out). Units' ranges nest (a unit's range can hold the copy of an inline function
// the linker kept from another unit), so every unit whose range holds `pc` is asked, the first one whose line
// table has it answering.
std::vector<ChainFrame> libdw_frames(Dwfl* dwfl, uintptr_t pc) {
    std::vector<ChainFrame> out;
    Dwfl_Module* module = dwfl_addrmodule(dwfl, pc);
    if (!module) return out;
    const ModuleUnits& units = units_of(module);
    if (!units.dwarf) return out;
    const Dwarf_Addr at = pc - units.bias;
    Dwarf_Die cu;
    Dwarf_Line* entry = nullptr;
    const auto end = std::upper_bound(units.ranges.begin(), units.ranges.end(), at,
                                      [](Dwarf_Addr a, const UnitRange& r) { return a < r.low; });
    for (auto r = units.ranges.begin(); r != end && !entry; ++r)
        if (at < r->high && dwarf_offdie(units.dwarf, r->die, &cu)) entry = dwarf_getsrc_die(&cu, at);
    if (!entry) return out;
    // A line of 0 (code the compiler made, no source line of its own) leaves only this innermost frame out:
    // the inlined calls around it still have their call sites.
    int line = 0;
    const char* file = dwarf_linesrc(entry, nullptr, nullptr);
    if (!file || dwarf_lineno(entry, &line) != 0) line = 0;
    if (!file) file = "";
    const auto push = [&out](const std::string& f, int l, std::string function) {
        if (!f.empty() && l > 0)
            out.push_back({f, static_cast<uint32_t>(l), std::move(function), path_owner(f.c_str())});
    };
    std::vector<Dwarf_Die> scopes = function_scopes(&cu, at);
    if (scopes.empty()) {
        push(file, line, demangled(dwfl_module_addrname(module, pc)));
        return out;
    }
    Dwarf_Files* files = nullptr;
    size_t file_count = 0;
    if (dwarf_getsrcfiles(&cu, &files, &file_count) != 0) files = nullptr;
    std::string at_file = file;
    int at_line = line;
    for (Dwarf_Die& scope : scopes) {
        push(at_file, at_line, function_name(&scope));
        if (dwarf_tag(&scope) != DW_TAG_inlined_subroutine) break;
        // The caller's frame is at the inlined call's site.
        Dwarf_Attribute attr;
        Dwarf_Word value = 0;
        at_file.clear();
        at_line = 0;
        if (files && dwarf_formudata(dwarf_attr(&scope, DW_AT_call_file, &attr), &value) == 0)
            if (const char* f = dwarf_filesrc(files, value, nullptr, nullptr)) at_file = f;
        if (dwarf_formudata(dwarf_attr(&scope, DW_AT_call_line, &attr), &value) == 0)
            at_line = static_cast<int>(value);
    }
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
    Dwfl* dwfl = nullptr;
    bool asked = false;
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
            std::vector<ChainFrame> frames = libbacktrace_frames(state, pc - 1);
            if (frames.empty()) {
                if (!asked) {
                    dwfl = dwfl_for_now();
                    asked = true;
                }
                if (dwfl) frames = libdw_frames(dwfl, pc - 1);
            }
            c.resolved.emplace(pc, std::move(frames));
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
