// Chrome trace / Perfetto JSON of a cycle-model timeline (evg/reports/timeline.hpp).
#include <fmt/format.h>

#include <array>
#include <nlohmann/json.hpp>
#include <ostream>
#include <unordered_map>
#include <vector>

#include "evg/reports/timeline.hpp"
#include "timeline_common.hpp"

namespace evg::reports {

namespace h = evg::hw;
namespace t = evg::hw::timing;

namespace detail {

std::string json_string(std::string_view s) {
    return nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

int track_of(const h::TraceEntry& e) {
    if (e.blocking || e.pipe == h::Pipe::S) return 0;
    return h::pipe_slot(e.pipe) + 1;
}

std::string_view track_name(int track) {
    return track == 0 ? std::string_view("S (scalar unit)") : h::pipe_name(h::slot_pipe(track - 1));
}

int track_order(int track) {
    // S, MTE2, V, MTE3, then the cube side: MTE1, M, FIX.
    static constexpr int kOrder[] = {0, 2, 5, 4, 1, 3, 6};  // by pipe slot + 1: S V M MTE1 MTE2 MTE3 FIX
    if (track == 0) return 0;
    return kOrder[track - 1] + 1;
}

std::string waited_for(const TimelineInput& in, const t::Slice& s) {
    if (s.after == 0 || s.after > in.trace.size()) return {};
    const h::TraceEntry& by = in.trace[s.after - 1];
    return fmt::format("{} on {} {} (instruction {}, ends at cycle {})", by.op(),
                       in.timeline.launch.core_name(by.core), track_name(track_of(by)), by.id,
                       in.timeline.slices[s.after - 1].end);
}

}  // namespace detail

void write_timeline_json(std::ostream& out, const TimelineInput& in) {
    using detail::json_string;
    const t::Timeline& tl = in.timeline;
    const t::Summary& sum = tl.summary;
    out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{";
    out << "\"title\":" << json_string(in.title) << ",\"arch\":" << json_string(h::arch_name(tl.launch.arch))
        << ",\"time_unit\":\"1 us on this timeline = 1 cycle of the core clock\""
        << fmt::format(",\"clock_ghz\":{},\"total_cycles\":{},\"complete\":{}", sum.clock_ghz, sum.total,
                       tl.complete ? "true" : "false")
        << ",\"summary\":" << json_string(in.summary) << "},\n\"traceEvents\":[\n";
    bool first = true;
    auto event = [&](const std::string& s) {
        if (!first) out << ",\n";
        first = false;
        out << s;
    };
    // Processes and tracks that have something.
    std::vector<std::array<bool, h::kPipeSlots + 1>> used;
    for (size_t i = 0; i < in.trace.size(); ++i) {
        const h::TraceEntry& e = in.trace[i];
        if (!tl.slices[i].timed) continue;
        if (used.size() <= e.core) used.resize(static_cast<size_t>(e.core) + 1, {});
        used[e.core][static_cast<size_t>(detail::track_of(e))] = true;
    }
    for (size_t c = 0; c < used.size(); ++c) {
        bool any = false;
        for (bool u : used[c]) any |= u;
        if (!any && (c >= tl.ub.size() || tl.ub[c].empty())) continue;
        const int pid = static_cast<int>(c) + 1;
        event(fmt::format(R"({{"ph":"M","name":"process_name","pid":{},"args":{{"name":{}}}}})", pid,
                          json_string(tl.launch.core_name(static_cast<int>(c)))));
        event(fmt::format(R"({{"ph":"M","name":"process_sort_index","pid":{},"args":{{"sort_index":{}}}}})",
                          pid, c));
        for (int track = 0; track <= h::kPipeSlots; ++track) {
            if (!used[c][static_cast<size_t>(track)]) continue;
            event(fmt::format(R"({{"ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":{}}}}})",
                              pid, track, json_string(detail::track_name(track))));
            event(fmt::format(
                R"({{"ph":"M","name":"thread_sort_index","pid":{},"tid":{},"args":{{"sort_index":{}}}}})",
                pid, track, detail::track_order(track)));
        }
    }
    std::unordered_map<uint32_t, std::string> op_json, site_json;
    for (size_t i = 0; i < in.trace.size(); ++i) {
        const t::Slice& s = tl.slices[i];
        if (!s.timed) continue;
        const h::TraceEntry& e = in.trace[i];
        auto [op, fresh] = op_json.try_emplace(e.op_site);
        if (fresh) {
            op->second = json_string(e.op());
            const h::Site site = e.site();
            site_json[e.op_site] =
                json_string(site.file ? fmt::format("{}:{}", site.file, site.line) : std::string());
        }
        const int pid = e.core + 1, tid = detail::track_of(e);
        const std::string node = e.node >= 0 && static_cast<size_t>(e.node) < in.node_labels.size()
                                     ? json_string(in.node_labels[static_cast<size_t>(e.node)])
                                     : std::string("null");
        std::string args = fmt::format(R"("instruction":{},"node":{},"site":{},"issue":{})", e.id, node,
                                       site_json[e.op_site], s.issue);
        if (s.bytes) args += fmt::format(R"(,"bytes":{})", s.bytes);
        if (s.repeats) args += fmt::format(R"(,"repeats":{})", s.repeats);
        if (s.stall) args += fmt::format(R"(,"stall":{})", s.stall);
        const auto mark = in.marks.find(e.id);
        if (mark != in.marks.end()) {
            args += fmt::format(R"(,"finding":{})", json_string(mark->second));
            event(fmt::format(R"({{"ph":"i","s":"t","name":{},"cat":"finding","pid":{},"tid":{},"ts":{}}})",
                              json_string(mark->second.substr(0, mark->second.find(':'))), pid, tid,
                              s.start));
        }
        event(fmt::format(
            R"({{"ph":"X","name":{},"cat":{},"pid":{},"tid":{},"ts":{},"dur":{},"args":{{{}}}}})", op->second,
            json_string(detail::track_name(tid)), pid, tid, s.start, s.end - s.start, args));
        if (s.stall > 0)
            event(fmt::format(
                R"({{"ph":"X","name":{},"cat":"stall","pid":{},"tid":{},"ts":{},"dur":{},"args":{{"waiting_for":{}}}}})",
                json_string(fmt::format("stall: {}", e.op())), pid, tid, s.start, s.stall,
                json_string(detail::waited_for(in, s))));
    }
    uint64_t flow_id = 0;
    for (const t::Flow& f : tl.flows) {
        const h::TraceEntry& set = in.trace[f.set - 1];
        const h::TraceEntry& wait = in.trace[f.wait - 1];
        const t::Slice& ss = tl.slices[f.set - 1];
        const t::Slice& ws = tl.slices[f.wait - 1];
        ++flow_id;
        const std::string name = json_string(set.op());
        event(fmt::format(R"({{"ph":"s","id":{},"name":{},"cat":"{}","pid":{},"tid":{},"ts":{}}})", flow_id,
                          name, f.cross_core ? "cross-core flag" : "flag", set.core + 1,
                          detail::track_of(set), ss.start));
        event(fmt::format(R"({{"ph":"f","bp":"e","id":{},"name":{},"cat":"{}","pid":{},"tid":{},"ts":{}}})",
                          flow_id, name, f.cross_core ? "cross-core flag" : "flag", wait.core + 1,
                          detail::track_of(wait), ws.start + ws.stall));
    }
    for (size_t c = 0; c < tl.ub.size(); ++c)
        for (const t::UbSample& u : tl.ub[c])
            event(
                fmt::format(R"({{"ph":"C","name":"UB bytes in use","pid":{},"ts":{},"args":{{"bytes":{}}}}})",
                            c + 1, u.time, u.bytes));
    out << "\n]}\n";
}

}  // namespace evg::reports
