// The fixes of docs/upstream-findings.md, applied to a copy of the checkout in the build folder
// (upstream/fixed/apply_fixes.sh): the named instances of the upstream corpus (graphs that show a finding on
// the checkout or settle a suspicion, corpus_gen.cpp) compiled against the fixed copy run with no finding at
// all and match the oracle, at their own shape and at others, on one and several cores, in order and under
// adversarial schedules.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

#include "corpus_check.hpp"
#include "corpus_emit.hpp"
#include "evg/graph/graph.hpp"
#include "evg/props/regression.hpp"

namespace evg::upstream::corpus {
namespace {

TEST(UpstreamCorpusFixed, NamedInstancesRunCleanOnTheFixedCopy) {
    std::set<std::string> ran;
    for (const Instance& instance : upstream_corpus()) {
        if (std::string_view(instance.name).empty()) continue;
        ran.insert(instance.name);
        const props::Case base = props::case_from_text(instance.text);
        const graph::Problem& own = base.problem;
        for (const auto& [m, n, k] :
             {std::tuple{own.m, own.n, own.k}, std::tuple<int64_t, int64_t, int64_t>{33, 65, 1},
              std::tuple<int64_t, int64_t, int64_t>{1, 65, 17},
              std::tuple<int64_t, int64_t, int64_t>{100, 130, 70}})
            for (uint32_t cores : {1u, 2u})
                for (uint64_t sched : {0u, 1u, 2u}) {
                    props::Case c = base;
                    c.problem = graph::with_shape(base.problem, m, n, k);
                    c.cores = cores;
                    c.sched_seed = sched;
                    const verify::CaseData data =
                        verify::make_case_data(c.problem, c.data, c.data_seed, c.sign);
                    const UpstreamVerdict r = run_and_judge(instance, c, data, nullptr);
                    EXPECT_TRUE(r.verdict.clean())
                        << fmt::format("{} m={} n={} k={} cores={} sched={}\n{}", instance.name, m, n, k,
                                       cores, sched, r.verdict.text());
                }
    }
    // Every named graph of the corpus's table ran: none fell out of the fixed copy's library.
    std::set<std::string> table;
    for (const NamedGraph& g : named_graphs()) table.insert(g.name);
    EXPECT_EQ(ran, table);
}

}  // namespace
}  // namespace evg::upstream::corpus
