// Instruction names that take few distinct values ("PipeBarrier<PIPE_V>", "Cast<half, float, CAST_RINT>",
// "DataCopy GM->UB"), formatted once per thread instead of at every call: an instruction is named at each
// issue, and formatting the name cost a parse of the format string and often an allocation.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>

namespace evg::hw {

// The name for `key` (the enum values the name is made of, packed into an integer), built by `make` the first
// time this thread asks. Each call site passes its own lambda, so each has its own table (a lambda's type is
// unique); the reference stays valid for the thread's life (unordered_map nodes never move).
template <class Make>
const std::string& cached_name(uint64_t key, Make make) {
    thread_local std::unordered_map<uint64_t, std::string> names;
    if (auto it = names.find(key); it != names.end()) return it->second;
    return names.emplace(key, make()).first->second;
}

}  // namespace evg::hw
