// The trace queries of trace.hpp.
#include "evg/verify/trace.hpp"

#include "evg/hw/cube_state.hpp"

#include <fmt/format.h>

#include <map>
#include <set>
#include <tuple>

namespace evg::verify {

using hw::InstrKind;

std::vector<FlagImbalance> unbalanced_flags(const hw::Trace& trace) {
    std::map<std::tuple<int, hw::HardEvent, int>, std::pair<uint64_t, uint64_t>> counts;
    for (const hw::TraceEntry& e : trace) {
        if (e.kind != InstrKind::set_flag && e.kind != InstrKind::wait_flag) continue;
        if (e.event_id == hw::kUnitFlagId) continue;  // a unitFlag hand-over, not a flag call of the kernel
        auto& [sets, waits] = counts[{e.core, e.event, e.event_id}];
        (e.kind == InstrKind::set_flag ? sets : waits)++;
    }
    std::vector<FlagImbalance> out;
    for (const auto& [key, sw] : counts)
        if (sw.first != sw.second)
            out.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), sw.first, sw.second});
    return out;
}

std::vector<FlagImbalance> unbalanced_flags(const hw::Report& report) {
    std::vector<FlagImbalance> out;
    for (const auto& [key, sw] : report.stats.flag_calls)
        if (sw.first != sw.second)
            out.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), sw.first, sw.second});
    return out;
}

std::string to_string(const FlagImbalance& f, hw::KernelType type, int block_dim) {
    return fmt::format("{} {}({}): {} sets, {} waits", hw::core_name(type, block_dim, f.core),
                       hw::event_name(f.event), f.id, f.sets, f.waits);
}

std::vector<std::string> events_used(const hw::Trace& trace) {
    std::set<std::string> names;
    for (const hw::TraceEntry& e : trace)
        if ((e.kind == InstrKind::set_flag || e.kind == InstrKind::wait_flag) &&
            e.event_id != hw::kUnitFlagId)
            names.insert(std::string(hw::event_name(e.event)));
    return {names.begin(), names.end()};
}

std::vector<std::string> events_used(const hw::Report& report) {
    std::set<std::string> names;
    for (const auto& [key, sw] : report.stats.flag_calls)
        names.insert(std::string(hw::event_name(std::get<1>(key))));
    return {names.begin(), names.end()};
}

SyncCounts sync_counts(const hw::Trace& trace) {
    SyncCounts c;
    for (const hw::TraceEntry& e : trace) switch (e.kind) {
            case InstrKind::plain:
                ++c.plain;
                break;
            case InstrKind::set_flag:
                ++c.set_flag;
                break;
            case InstrKind::wait_flag:
                ++c.wait_flag;
                break;
            case InstrKind::barrier:
                ++c.barrier;
                break;
            case InstrKind::cross_set:
                ++c.cross_set;
                break;
            case InstrKind::cross_wait:
                ++c.cross_wait;
                break;
        }
    return c;
}

}  // namespace evg::verify
