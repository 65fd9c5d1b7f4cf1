// The synchronisation of a launch and where two of them part, shared by the upstream tests: the differential
// test (upstream's example kernels against evgcheck's copy) and the corpus (a tree against its
// TopologicalVisitor twin). Plain data, so that it crosses the boundary of a side library.
#pragma once
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "evg/hw/trace.hpp"

namespace evg::upstream {

// The synchronisation calls of one (launch-wide core index, pipe name), in issue order, as the trace prints
// them: "SetFlag<MTE2_V>(0)", "PipeBarrier<V>", "CrossCoreSetFlag<2, FIX>(0)", ...
using SyncSequences = std::map<std::pair<int, std::string>, std::vector<std::string>>;

// Every SetFlag, WaitFlag, PipeBarrier and cross-core call of a trace (whose op names are this process's).
inline SyncSequences sync_sequences(const hw::Trace& trace) {
    SyncSequences out;
    for (const hw::TraceEntry& e : trace) {
        if (e.kind == hw::InstrKind::plain) continue;
        out[{e.core, std::string(hw::pipe_name(e.pipe))}].emplace_back(e.op());
    }
    return out;
}

// One (core, pipe) whose sequences differ: the first call where they part (an index past a sequence's end
// when one is a prefix of the other), the sizes, and the two calls there ("(end)" past an end).
struct SyncDivergence {
    int core = 0;
    std::string pipe;
    std::size_t call = 0, size_a = 0, size_b = 0;
    std::string a, b;
};

// Every (core, pipe) where `a` and `b` differ, in key order; none when they are the same.
inline std::vector<SyncDivergence> sync_divergences(const SyncSequences& a, const SyncSequences& b) {
    std::set<SyncSequences::key_type> keys;
    for (const auto& [key, seq] : a) keys.insert(key);
    for (const auto& [key, seq] : b) keys.insert(key);
    static const std::vector<std::string> kNone;
    std::vector<SyncDivergence> out;
    for (const auto& key : keys) {
        const auto& x = a.count(key) ? a.at(key) : kNone;
        const auto& y = b.count(key) ? b.at(key) : kNone;
        std::size_t i = 0;
        while (i < x.size() && i < y.size() && x[i] == y[i]) ++i;
        if (i == x.size() && i == y.size()) continue;
        out.push_back({key.first, key.second, i, x.size(), y.size(), i < x.size() ? x[i] : "(end)",
                       i < y.size() ? y[i] : "(end)"});
    }
    return out;
}

}  // namespace evg::upstream
