// The timeline files (evg/reports/timeline.hpp) of a real run: the graph below through the Catlass kernel on
// one AI core, where each AIV runs 3 BlockEpilogue tiles. The JSON must parse, its slices must nest on every
// track, and its flow arrows must join each WaitFlag to the SetFlag the BlockEpilogue protocol says released
// it (docs/evg-semantics.md §11, as lib/catlass implements it with its MTE3_MTE2 pair; worked out by hand
// below).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "evg/graph/run.hpp"
#include "evg/graph/text.hpp"
#include "evg/reports/cycle_summary.hpp"
#include "evg/reports/timeline.hpp"
#include "evg/thousands.hpp"

namespace evg::reports {
namespace {

// One block of 32 x 64 on one AI core: each AIV gets 16 rows; computeLength 384 holds 6 rows of 64 columns,
// so each AIV runs 3 tiles (6, 6 and 4 rows), buffer sets 0, 1, 0.
constexpr const char* kThreeTiles =
    R"(problem arch=AtlasA2 m=32 n=64 k=32 a=half b=half c=float cl=384 path=gm tile=32x64x64
input  X : half[32, 64]
output D : half[32, 64]
%0 = AccLoad float
%1 = AuxLoad half X
%2 = Cast float <- half CAST_NONE (%1)
%3 = Compute Add float (%0, %2)
%4 = Cast half <- float CAST_RINT (%3)
%5 = AuxStore half D (%4)
)";

struct TimedRun {
    graph::ModelRun run;
    hw::timing::Timeline timeline;
    hw::timing::Launch launch;
};

TimedRun run_three_tiles() {
    const graph::Problem p = graph::parse_problem(kThreeTiles);
    graph::RunInputs in;
    in.tensors["A"] = std::vector<uint8_t>(32 * 32 * 2, 0);
    in.tensors["B"] = std::vector<uint8_t>(32 * 64 * 2, 0);
    in.tensors["X"] = std::vector<uint8_t>(32 * 64 * 2, 0);
    graph::RunOptions o;
    o.block_dim = 1;
    o.config.trace_accesses = true;
    TimedRun r;
    r.run = graph::run_on_model(p, in, o);
    r.launch = {hw::ArchId::AtlasA2, 1, hw::KernelType::mix_aic_1_2};
    r.timeline = hw::timing::simulate(r.run.trace, r.launch);
    return r;
}

nlohmann::json json_of(const TimedRun& r) {
    std::ostringstream out;
    write_timeline_json(out, {r.run.trace, r.timeline, r.run.report.node_labels, "three tiles",
                              reports::cycle_summary_text(r.timeline, r.run.trace, r.launch)});
    return nlohmann::json::parse(out.str());
}

// The summary names the chip, the total and every core's pipes; a timeline the model could not finish (a
// deadlock left instructions untimed) says so on its first line.
TEST(CycleSummary, NamesTheTotalAndSaysWhenTheTimelineIsIncomplete) {
    TimedRun r = run_three_tiles();
    const std::string text = reports::cycle_summary_text(r.timeline, r.run.trace, r.launch);
    EXPECT_EQ(text.rfind(fmt::format("cycle model (AtlasA2, "), 0), 0u) << text;
    EXPECT_NE(text.find(fmt::format("{} cycles", thousands(r.timeline.summary.total))), std::string::npos)
        << text;
    EXPECT_EQ(text.find("INCOMPLETE"), std::string::npos) << text;
    r.timeline.complete = false;
    const std::string cut = reports::cycle_summary_text(r.timeline, r.run.trace, r.launch);
    EXPECT_NE(cut.substr(0, cut.find('\n')).find("INCOMPLETE: some instructions never ran (deadlock)"),
              std::string::npos)
        << cut;
}

TEST(TimelineJson, ParsesAndItsSlicesNest) {
    const TimedRun r = run_three_tiles();
    ASSERT_TRUE(r.run.report.clean()) << r.run.report.text();
    ASSERT_TRUE(r.timeline.complete);
    const nlohmann::json j = json_of(r);
    EXPECT_EQ(j["otherData"]["total_cycles"].get<uint64_t>(), r.timeline.summary.total);
    std::map<std::pair<int, int>, std::vector<std::pair<uint64_t, uint64_t>>> tracks;
    size_t slices = 0, stalls = 0, counters = 0;
    for (const auto& e : j["traceEvents"]) {
        const std::string ph = e["ph"];
        if (ph == "C") ++counters;
        if (ph != "X") continue;
        ++slices;
        if (e["cat"] == "stall") ++stalls;
        const uint64_t ts = e["ts"], dur = e["dur"];
        tracks[{e["pid"].get<int>(), e["tid"].get<int>()}].emplace_back(ts, ts + dur);
    }
    EXPECT_EQ(slices - stalls, r.run.trace.size());  // one slice per instruction, plus the stall children
    EXPECT_GT(stalls, 0u);
    EXPECT_GT(counters, 0u);  // the UB-in-use counter
    for (auto& [track, v] : tracks) {
        // Sorted by start, longest first: each slice either starts after the open ones end or lies inside
        // them.
        std::sort(v.begin(), v.end(), [](auto a, auto b) {
            return a.first != b.first ? a.first < b.first : a.second > b.second;
        });
        std::vector<uint64_t> open;
        for (const auto& [b, e] : v) {
            while (!open.empty() && open.back() <= b) open.pop_back();
            if (!open.empty()) {
                EXPECT_LE(e, open.back()) << "pid " << track.first << " tid " << track.second << ": [" << b
                                          << ", " << e << ") overlaps a slice ending at " << open.back();
            }
            open.push_back(e);
        }
    }
}

// The sync calls of one AIV's BlockEpilogue over 3 tiles, in program order, each with the phase that issues
// it: the constructor, tile t's LOAD / COMPUTE / STORE, the destructor.
struct Call {
    std::string op, phase;
};
std::vector<Call> protocol() {
    std::vector<Call> v;
    for (const char* ev : {"V_MTE2", "MTE3_V", "MTE3_MTE2"})
        for (int id : {0, 1}) v.push_back({fmt::format("SetFlag<{}>({})", ev, id), "ctor"});
    for (int t = 0; t < 3; ++t) {
        const int id = t % 2;
        const std::string tile = fmt::format("tile{}", t);
        v.push_back({fmt::format("WaitFlag<V_MTE2>({})", id), tile});
        v.push_back({fmt::format("WaitFlag<MTE3_MTE2>({})", id), tile});
        v.push_back({fmt::format("SetFlag<MTE2_V>({})", id), tile});
        v.push_back({fmt::format("WaitFlag<MTE2_V>({})", id), tile});
        v.push_back({fmt::format("WaitFlag<MTE3_V>({})", id), tile});
        v.push_back({fmt::format("SetFlag<V_MTE2>({})", id), tile});
        v.push_back({fmt::format("SetFlag<V_MTE3>({})", id), tile});
        v.push_back({fmt::format("WaitFlag<V_MTE3>({})", id), tile});
        v.push_back({fmt::format("SetFlag<MTE3_V>({})", id), tile});
        v.push_back({fmt::format("SetFlag<MTE3_MTE2>({})", id), tile});
    }
    for (const char* ev : {"V_MTE2", "MTE3_V", "MTE3_MTE2"})
        for (int id : {0, 1}) v.push_back({fmt::format("WaitFlag<{}>({})", ev, id), "dtor"});
    return v;
}

TEST(TimelineJson, FlowsOfAThreeTileBlockEpilogueFollowItsProtocol) {
    const TimedRun r = run_three_tiles();
    ASSERT_TRUE(r.run.report.clean()) << r.run.report.text();
    // AIV0.0 is core 1 (the AIC first). Its intra-core sync calls, labelled by phase.
    constexpr int kAiv = 1;
    std::map<uint32_t, std::string> phase_of;  // instruction id -> "SetFlag<V_MTE2>(0) @ ctor"
    const std::vector<Call> want = protocol();
    size_t k = 0;
    for (const hw::TraceEntry& e : r.run.trace) {
        if (e.core != kAiv || (e.kind != hw::InstrKind::set_flag && e.kind != hw::InstrKind::wait_flag))
            continue;
        ASSERT_LT(k, want.size()) << "more sync calls than the protocol has: " << e.op();
        ASSERT_EQ(e.op(), want[k].op) << "sync call " << k;
        phase_of[e.id] = want[k].op + " @ " + want[k].phase;
        ++k;
    }
    ASSERT_EQ(k, want.size());

    // Which set releases which wait, by hand: the first two tiles' LOAD and COMPUTE waits on V_MTE2,
    // MTE3_MTE2 and MTE3_V take the constructor's sets; tile 2 (buffer set 0 again) takes tile 0's; the
    // destructor takes the last tile of each buffer set (tile 2 for set 0, tile 1 for set 1); MTE2_V and
    // V_MTE3 are set and waited within one tile.
    std::multiset<std::pair<std::string, std::string>> expected;
    for (int t = 0; t < 3; ++t) {
        const int id = t % 2;
        const std::string tile = fmt::format("tile{}", t),
                          prev = t < 2 ? "ctor" : fmt::format("tile{}", t - 2);
        for (const char* ev : {"V_MTE2", "MTE3_MTE2", "MTE3_V"})
            expected.insert({fmt::format("WaitFlag<{}>({}) @ {}", ev, id, tile),
                             fmt::format("SetFlag<{}>({}) @ {}", ev, id, prev)});
        for (const char* ev : {"MTE2_V", "V_MTE3"})
            expected.insert({fmt::format("WaitFlag<{}>({}) @ {}", ev, id, tile),
                             fmt::format("SetFlag<{}>({}) @ {}", ev, id, tile)});
    }
    for (const char* ev : {"V_MTE2", "MTE3_V", "MTE3_MTE2"}) {
        expected.insert(
            {fmt::format("WaitFlag<{}>(0) @ dtor", ev), fmt::format("SetFlag<{}>(0) @ tile2", ev)});
        expected.insert(
            {fmt::format("WaitFlag<{}>(1) @ dtor", ev), fmt::format("SetFlag<{}>(1) @ tile1", ev)});
    }
    ASSERT_EQ(expected.size(), 21u);

    // The JSON's flows, bound to the slices that contain their ends (as a trace viewer binds them).
    const nlohmann::json j = json_of(r);
    struct Sl {
        uint64_t b, e;
        uint32_t id;
    };
    std::map<std::pair<int, int>, std::vector<Sl>> slices;
    for (const auto& e : j["traceEvents"])
        if (e["ph"] == "X" && e["cat"] != "stall")
            slices[{e["pid"].get<int>(), e["tid"].get<int>()}].push_back(
                {e["ts"].get<uint64_t>(), e["ts"].get<uint64_t>() + e["dur"].get<uint64_t>(),
                 e["args"]["instruction"].get<uint32_t>()});
    auto slice_at = [&](const nlohmann::json& ev) -> uint32_t {
        const auto& v = slices[{ev["pid"].get<int>(), ev["tid"].get<int>()}];
        const uint64_t ts = ev["ts"];
        for (const Sl& s : v)
            if (s.b <= ts && ts < s.e) return s.id;
        return 0;
    };
    std::map<uint64_t, uint32_t> starts, finishes;
    for (const auto& e : j["traceEvents"]) {
        if (e["ph"] == "s") starts[e["id"].get<uint64_t>()] = slice_at(e);
        if (e["ph"] == "f") finishes[e["id"].get<uint64_t>()] = slice_at(e);
    }
    std::multiset<std::pair<std::string, std::string>> got;
    for (const auto& [id, wait] : finishes) {
        ASSERT_NE(wait, 0u) << "flow " << id << " ends outside any slice";
        ASSERT_NE(starts[id], 0u) << "flow " << id << " starts outside any slice";
        if (!phase_of.count(wait)) continue;  // another core's, or a cross-core flag
        ASSERT_TRUE(phase_of.count(starts[id]))
            << "flow " << id << " into " << phase_of[wait] << " from another core";
        got.insert({phase_of[wait], phase_of[starts[id]]});
    }
    EXPECT_EQ(got, expected);
}

TEST(TimelineHtml, IsOnePageWithItsDataAndNoNetwork) {
    const TimedRun r = run_three_tiles();
    std::ostringstream out;
    write_timeline_html(out, {r.run.trace, r.timeline, r.run.report.node_labels, "three <tiles>",
                              reports::cycle_summary_text(r.timeline, r.run.trace, r.launch)});
    const std::string page = out.str();
    EXPECT_NE(page.find("<canvas"), std::string::npos);
    EXPECT_NE(page.find("three &lt;tiles&gt;"), std::string::npos);  // escaped
    EXPECT_EQ(page.find("http://"), std::string::npos);
    EXPECT_EQ(page.find("https://"), std::string::npos);
    EXPECT_EQ(page.find("<script src"), std::string::npos);
    // The inline data parses as JSON and has every instruction.
    const size_t b = page.find("id=\"data\">") + 10, e = page.find("</script>", b);
    const nlohmann::json d = nlohmann::json::parse(page.substr(b, e - b));
    EXPECT_EQ(d["slices"].size(), r.run.trace.size());
    EXPECT_EQ(d["total"].get<uint64_t>(), r.timeline.summary.total);
    EXPECT_FALSE(d["flows"].empty());
}

// A page with fewer slices than the run has is cut by time, the same cycle for every core: it states the
// window, every instruction of the full timeline that starts before the window's end is drawn (so no core's
// track stops early while another goes on), none after it, and none extends past it.
TEST(TimelineHtml, ALargeRunIsCutByTimeForEveryCoreAndThePageSaysSo) {
    const TimedRun r = run_three_tiles();
    size_t timed = 0;
    for (const hw::timing::Slice& s : r.timeline.slices) timed += s.timed ? 1 : 0;
    const size_t limit = timed / 3;
    std::ostringstream out;
    write_timeline_html(out,
                        {r.run.trace, r.timeline, r.run.report.node_labels, "cut",
                         reports::cycle_summary_text(r.timeline, r.run.trace, r.launch)},
                        limit);
    const std::string page = out.str();
    const size_t b = page.find("id=\"data\">") + 10, e = page.find("</script>", b);
    const nlohmann::json d = nlohmann::json::parse(page.substr(b, e - b));
    const uint64_t cut = d["total"].get<uint64_t>();
    ASSERT_GT(cut, 0u);
    ASSERT_LT(cut, r.timeline.summary.total);
    EXPECT_NE(page.find(fmt::format("shows cycles 0 to {} of the run's {}", cut, r.timeline.summary.total)),
              std::string::npos)
        << page.substr(0, 2000);
    EXPECT_LE(d["slices"].size(), limit);
    // Per core: the slices of the full run that start before the cut, and the page's.
    std::map<int, size_t> want, got;
    for (size_t i = 0; i < r.timeline.slices.size(); ++i) {
        const hw::timing::Slice& s = r.timeline.slices[i];
        if (s.timed && s.start < cut) ++want[r.run.trace[i].core];
    }
    ASSERT_GE(want.size(), 2u) << "the window should hold more than one core's work";
    for (const auto& sl : d["slices"]) {
        ++got[sl[0].get<int>()];
        EXPECT_LE(sl[2].get<uint64_t>() + sl[3].get<uint64_t>(), cut) << sl.dump();
    }
    EXPECT_EQ(got, want);
    // A run that fits is drawn whole, with no window note.
    std::ostringstream whole;
    write_timeline_html(whole, {r.run.trace, r.timeline, r.run.report.node_labels, "whole", ""}, timed);
    EXPECT_EQ(whole.str().find("id=\"window\""), std::string::npos);
}

}  // namespace
}  // namespace evg::reports
