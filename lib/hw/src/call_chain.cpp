// Call chains (call_chain.hpp): captured with the unwinder, interned, and resolved with GNU addr2line, one
// run per chain for the addresses not resolved yet.
#include "evg/hw/call_chain.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <unwind.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <span>
#include <unordered_map>

#include <fmt/format.h>

extern char** environ;

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

// The module holding `pc` and the address addr2line wants for it: relative to the module's load address for
// a position-independent module (a PIE executable, a shared library), the address itself otherwise.
struct ModuleAddress {
    std::string path;
    uintptr_t address = 0;
};
bool module_address(uintptr_t pc, ModuleAddress& out) {
    Dl_info info{};
    // dladdr asks for an address as a pointer; pc is a code address the unwinder gave as an integer.
    void* const code = reinterpret_cast<void*>(pc);  // NOLINT(performance-no-int-to-ptr)
    if (dladdr(code, &info) == 0 || !info.dli_fname) return false;
    static std::map<std::string, bool> position_independent;  // guarded by Chains::mutex
    std::string path = info.dli_fname;
    if (path.empty()) path = "/proc/self/exe";  // the main program, as some loaders name it
    auto it = position_independent.find(path);
    if (it == position_independent.end()) {
        std::ifstream f(path, std::ios::binary);
        std::array<unsigned char, 18> head{};
        f.read(reinterpret_cast<char*>(head.data()), head.size());
        const bool elf = f && head[0] == 0x7f && head[1] == 'E' && head[2] == 'L' && head[3] == 'F';
        it = position_independent.emplace(path, elf && head[16] == 3 /* ET_DYN */).first;
    }
    out.path = path;
    out.address = it->second ? pc - reinterpret_cast<uintptr_t>(info.dli_fbase) : pc;
    return true;
}

// The system's libraries (the C library's frames under a fiber's entry, the C++ library's std::function): no
// line of theirs is the user's or Catlass's, and reading their symbols costs addr2line ten times what the
// program's debug information does.
bool system_module(const std::string& path) {
    return path.starts_with("/lib/") || path.starts_with("/lib64/") || path.starts_with("/usr/lib/") ||
           path.starts_with("/usr/lib64/");
}

// Runs `addr2line -f -i -C -a -e MODULE ADDR...` and reads its frames: per address a line "0x...", then per
// inlined call a function line and a "file:line" line, innermost first. Empty when it cannot run.
std::vector<std::vector<ChainFrame>> addr2line(const std::string& module,
                                               const std::vector<uintptr_t>& addrs) {
    std::vector<std::vector<ChainFrame>> out(addrs.size());
    std::vector<std::string> args = {"addr2line", "-f", "-i", "-C", "-a", "-e", module};
    for (uintptr_t a : addrs) args.push_back(fmt::format("{:#x}", a));
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    int pipe_fd[2];
    if (pipe2(pipe_fd, O_CLOEXEC) != 0) return out;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fd[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const int spawned = posix_spawnp(&pid, "addr2line", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipe_fd[1]);
    std::string text;
    if (spawned == 0) {
        std::array<char, 4096> buf{};
        for (ssize_t n; (n = read(pipe_fd[0], buf.data(), buf.size())) != 0;) {
            if (n < 0) {
                if (errno == EINTR) continue;
                break;
            }
            text.append(buf.data(), static_cast<size_t>(n));
        }
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    close(pipe_fd[0]);
    // Parse: an address line starts a new entry; then function / place pairs.
    std::vector<std::string> lines;
    for (size_t at = 0; at < text.size();) {
        size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    int entry = -1;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].starts_with("0x")) {
            if (++entry >= static_cast<int>(out.size())) break;
            continue;
        }
        if (entry < 0 || i + 1 >= lines.size()) break;
        const std::string& function = lines[i];
        const std::string& place = lines[++i];
        const size_t colon = place.rfind(':');
        if (colon == std::string::npos) continue;
        const std::string file = place.substr(0, colon);
        const uint32_t line = static_cast<uint32_t>(std::strtoul(place.c_str() + colon + 1, nullptr, 10));
        if (file.empty() || file == "??" || line == 0) continue;
        out[static_cast<size_t>(entry)].push_back(
            {file, line, function == "??" ? "" : function, path_owner(file)});
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
// Resolves the addresses of chains `ids` not resolved yet: one addr2line run per module (the caller holds the
// mutex).
void resolve_locked(Chains& c, std::span<const uint32_t> ids) {
    std::map<std::string, std::vector<uintptr_t>> wanted_by_module;
    std::map<std::string, std::vector<uintptr_t>> pcs_by_module;
    for (const uint32_t id : ids) {
        if (id == 0 || id > c.stacks.size()) continue;
        for (uintptr_t pc : c.stacks[id - 1]) {
            if (c.resolved.contains(pc)) continue;
            // A return address is the instruction after the call: look up the byte before it, inside the
            // call.
            ModuleAddress m;
            if (!module_address(pc - 1, m) || system_module(m.path)) {
                c.resolved.emplace(pc, std::vector<ChainFrame>{});
                continue;
            }
            c.resolved.emplace(pc,
                               std::vector<ChainFrame>{});  // claimed: a pc twice in the batch is asked once
            wanted_by_module[m.path].push_back(m.address);
            pcs_by_module[m.path].push_back(pc);
        }
    }
    for (auto& [module, addrs] : wanted_by_module) {
        std::vector<std::vector<ChainFrame>> frames = addr2line(module, addrs);
        const std::vector<uintptr_t>& pcs = pcs_by_module[module];
        for (size_t i = 0; i < pcs.size(); ++i) c.resolved[pcs[i]] = std::move(frames[i]);
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
