// GetTPipePtr: the TPipe each core constructed last. Cores may run as fibers on one thread, so the pipe is
// kept per core (per thread outside a kernel), not in a thread_local.
#include <mutex>
#include <unordered_map>

#include "ascendc/tensor.hpp"
#include "evg/hw/core.hpp"

namespace AscendC::detail {

namespace {
std::mutex& pipes_mutex() {
    static std::mutex m;
    return m;
}
std::unordered_map<const void*, TPipe*>& pipes() {
    static std::unordered_map<const void*, TPipe*> p;
    return p;
}
thread_local TPipe* host_pipe = nullptr;
}  // namespace

void set_tpipe(TPipe* pipe) {
    const evg::hw::Core* c = evg::hw::current_core_or_null();
    if (!c) {
        host_pipe = pipe;
        return;
    }
    std::lock_guard<std::mutex> lock(pipes_mutex());
    pipes()[c] = pipe;
}

void clear_tpipe(TPipe* pipe) {
    const evg::hw::Core* c = evg::hw::current_core_or_null();
    if (!c) {
        if (host_pipe == pipe) host_pipe = nullptr;
        return;
    }
    std::lock_guard<std::mutex> lock(pipes_mutex());
    auto it = pipes().find(c);
    if (it != pipes().end() && it->second == pipe) pipes().erase(it);
}

TPipe* get_tpipe() {
    const evg::hw::Core* c = evg::hw::current_core_or_null();
    if (!c) return host_pipe;
    std::lock_guard<std::mutex> lock(pipes_mutex());
    auto it = pipes().find(c);
    return it == pipes().end() ? nullptr : it->second;
}

}  // namespace AscendC::detail
