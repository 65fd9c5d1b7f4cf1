// evgcheck's own Catlass copy (lib/catlass) against upstream's code, on the seven example programs: the same
// host code (example_programs.hpp), the same data, the same schedule. Both must give bit-identical outputs,
// and the same synchronisation, per core and per pipe, in the same order: every SetFlag / WaitFlag with its
// event and id, every PipeBarrier, every cross-core set and wait. Where evgcheck's copy differs on purpose,
// the difference is named in kDeliberate with its reason (docs/upstream-differential.md), and the test
// removes exactly those calls from the copy's sequence before it compares: any other difference fails.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "evg/oracle/data.hpp"
#include "evg/oracle/host_tensor.hpp"
#include "ours_examples.hpp"
#include "upstream_examples.hpp"

namespace evg::upstream {
namespace {

// A difference of evgcheck's copy that is there on purpose: on the AIVs, the calls `extra_ops` (op texts as
// the trace prints them) on pipe `pipe` exist in the copy only. docs/upstream-differential.md gives each
// reason.
struct Deliberate {
    std::string pipe;
    std::set<std::string> extra_ops;
    const char* reason;
};
const std::map<Example, std::vector<Deliberate>> kDeliberate = {
    // The UB path: after each block, evgcheck's kernel drains the AIV's stores before it hands the UB back to
    // the
    // AIC (MTE3 -> V, then V -> MTE3 so that the next block's drain is ordered after this one even on an AIV
    // with
    // no row): upstream hands the UB back while the last tile's stores may still read it (docs/hazards.md,
    // store_reads_load_unordered).
    {Example::add_ub,
     {{"MTE3", {"SetFlag<MTE3_V>(2)", "WaitFlag<V_MTE3>(2)"}, "drain the stores before handing the UB back"},
      {"V", {"WaitFlag<MTE3_V>(2)", "SetFlag<V_MTE3>(2)"}, "drain the stores before handing the UB back"}}},
};

std::vector<float> floats(oracle::DType t, size_t n, uint64_t seed) {
    oracle::HostTensor h(t, n);
    oracle::fill_integers(h, -4, 4, seed);
    std::vector<float> v(n);
    std::memcpy(v.data(), h.bytes().data(), n * sizeof(float));
    return v;
}

struct Shape {
    ExampleShape s;
    const char* name;
};

class Differential : public ::testing::TestWithParam<std::pair<Example, Shape>> {};

TEST_P(Differential, SameOutputsAndSameSynchronisation) {
    const auto [example, shape] = GetParam();
    const ExampleShape s = shape.s;
    ExampleData data;
    data.a = floats(oracle::DType::f32, size_t(s.m) * s.k, 11);
    data.b = floats(oracle::DType::f32, size_t(s.k) * s.n, 12);
    data.d = floats(oracle::DType::f32, size_t(s.m) * s.n, 13);
    if (example == Example::bias) data.x = floats(oracle::DType::f32, s.n, 14);
    hw::Config cfg;
    cfg.keep_trace = true;
    const ExampleRun theirs = run_example_950(example, s, data, 2, cfg);
    const ExampleRun ours = run_ours_950(example, s, data, 2, cfg);

    EXPECT_TRUE(theirs.report.clean()) << "upstream:\n" << theirs.report.text();
    EXPECT_TRUE(ours.report.clean()) << "evgcheck's copy:\n" << ours.report.text();
    ASSERT_EQ(theirs.d.size(), ours.d.size());
    size_t differ = 0, first = 0;
    for (size_t i = 0; i < ours.d.size(); ++i) {
        if (std::memcmp(&ours.d[i], &theirs.d[i], sizeof(float)) != 0 && differ++ == 0) first = i;
    }
    EXPECT_EQ(differ, 0u) << "outputs differ in " << differ << " elements; the first, (" << first / s.n
                          << ", " << first % s.n << "): upstream " << theirs.d[first] << ", copy "
                          << ours.d[first];

    const SyncSequences& want = theirs.sync;
    SyncSequences got = ours.sync;
    if (auto it = kDeliberate.find(example); it != kDeliberate.end()) {
        for (const Deliberate& d : it->second) {
            size_t removed = 0;
            for (auto& [key, seq] : got) {
                if (key.second != d.pipe) continue;
                std::erase_if(seq, [&](const std::string& op) { return d.extra_ops.count(op) && ++removed; });
            }
            EXPECT_GT(removed, 0u) << "the deliberate difference '" << d.reason << "' is not there any more";
        }
    }
    for (const auto& [key, seq] : want) {
        const std::vector<std::string>& mine = got[key];
        size_t i = 0;
        while (i < seq.size() && i < mine.size() && seq[i] == mine[i]) ++i;
        EXPECT_TRUE(i == seq.size() && i == mine.size()) << fmt::format(
            "core {} pipe {}: the sequences part at call {} of {} (upstream) / {} (copy): upstream "
            "'{}', copy '{}'",
            key.first, key.second, i, seq.size(), mine.size(), i < seq.size() ? seq[i] : "(end)",
            i < mine.size() ? mine[i] : "(end)");
    }
    for (const auto& [key, seq] : got) {
        if (!want.count(key) && !seq.empty()) {
            ADD_FAILURE() << fmt::format(
                "core {} pipe {}: the copy syncs ({} calls, the first '{}'), upstream not", key.first,
                key.second, seq.size(), seq.front());
        }
    }
}

std::vector<std::pair<Example, Shape>> cases() {
    const Shape shapes[] = {{{128, 128, 128}, "m128_n128_k128"},
                            {{65, 100, 40}, "m65_n100_k40"},
                            {{300, 520, 130}, "m300_n520_k130"}};
    std::vector<std::pair<Example, Shape>> out;
    for (Example e : kExamples)
        for (const Shape& s : shapes) out.emplace_back(e, s);
    return out;
}

INSTANTIATE_TEST_SUITE_P(Ascend950, Differential, ::testing::ValuesIn(cases()), [](const auto& i) {
    return std::string(example_name(i.param.first)) + "_" + i.param.second.name;
});

}  // namespace
}  // namespace evg::upstream
