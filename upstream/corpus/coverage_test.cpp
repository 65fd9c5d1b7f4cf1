// The covering plan of upstream runs (coverage.hpp, corpus_emit.hpp's plan_instances), checked without
// compiling anything: the default run of `check --catlass-root` covers every reachable cell at any seed, a
// shorter run names what it leaves out, every drawn configuration is one upstream accepts, and a
// column-major operand is uploaded as the transpose of the oracle's row-major data.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "corpus_emit.hpp"
#include "coverage.hpp"
#include "evg/graph/emit_cpp.hpp"
#include "evg/graph/kernel_config.hpp"
#include "evg/graph/text.hpp"
#include "evg/props/regression.hpp"
#include "evg/verify/data.hpp"
#include "upstream_check.hpp"

namespace evg::upstream::corpus {
namespace {

Coverage coverage_of(const std::vector<Draw>& plan) {
    Coverage c;
    for (std::size_t i = 0; i < plan.size(); ++i) c.add(plan[i].c, check_twin(plan[i], i));
    return c;
}

TEST(UpstreamCoverage, TheDefaultRunIsTheCoveringSize) {
    EXPECT_EQ(check::kCoveringGraphs, kernel_family_cells());
}

TEST(UpstreamCoverage, TheDefaultRunCoversEveryReachableCellAtAnySeed) {
    for (uint64_t seed = 0; seed < 40; ++seed) {
        const std::vector<Draw> plan = plan_instances(seed, check::kCoveringGraphs);
        EXPECT_EQ(static_cast<int>(plan.size()), check::kCoveringGraphs) << "seed " << seed;
        const Coverage c = coverage_of(plan);
        EXPECT_EQ(c.left_out(), std::vector<std::string>{}) << "seed " << seed << "\n" << c.summary();
    }
}

TEST(UpstreamCoverage, AShortRunNamesTheCellsItLeavesOut) {
    const std::vector<Draw> plan = plan_instances(1, 4);
    ASSERT_EQ(plan.size(), 4u);
    const Coverage c = coverage_of(plan);
    const std::vector<std::string> left = c.left_out();
    EXPECT_FALSE(left.empty());
    const std::string summary = c.summary();
    for (const std::string& cell : left) {
        const std::string name = cell.substr(cell.find(": ") + 2);
        EXPECT_NE(summary.find(name), std::string::npos) << cell << "\n" << summary;
    }
    EXPECT_NE(summary.find("left out: "), std::string::npos);
    // The cells the model cannot reach are named with why, never counted as covered.
    EXPECT_NE(summary.find("not reachable: gm / pingpong_mutex: MmadPingpongMutex"), std::string::npos);
}

TEST(UpstreamCoverage, EveryPlannedConfigurationIsOneUpstreamAccepts) {
    std::set<std::string> families;
    for (const uint64_t seed : {1u, 7u, 35u}) {
        for (const Draw& d : plan_instances(seed, 48)) {
            EXPECT_EQ(graph::kernel_config_refusal(d.c.problem), std::nullopt) << props::summary(d.c);
            EXPECT_EQ(graph::kernel_config_unmodelled(d.c.problem.kernel), "") << props::summary(d.c);
            EXPECT_EQ(instance_refusal(d.c), "") << props::summary(d.c);
            families.insert(graph::kernel_config_summary(d.c.problem.kernel));
        }
    }
    EXPECT_GT(families.size(), 24u);  // stage counts and L0 K drawn, not one per family
}

TEST(UpstreamCoverage, PlansAreDeterministicAndRandomDrawsComeFirst) {
    const std::vector<Draw> a = plan_instances(5, 12), b = plan_instances(5, 12);
    ASSERT_EQ(a.size(), b.size());
    bool cover_seen = false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(props::to_text(a[i].c, "x"), props::to_text(b[i].c, "x"));
        if (a[i].cover) cover_seen = true;
        EXPECT_TRUE(!cover_seen || a[i].cover) << "a random draw after a cover graph, at " << i;
    }
}

TEST(UpstreamCoverage, AColumnMajorOperandIsTheTransposeOfTheRowMajorData) {
    graph::Problem p = graph::parse_problem(
        "problem arch=Ascend950 m=3 n=5 k=2 a=half b=half c=float cl=512 path=gm tile=32x64x64 layout_b=col\n"
        "output D : float[3, 5]\n"
        "%0 = AccLoad float\n"
        "%1 = AuxStore float D (%0)\n");
    const verify::CaseData data = verify::make_case_data(p, verify::DataMode::Uniform, 3);
    const std::vector<uint8_t> a = operand_in_gm(p, data, 'A'), b = operand_in_gm(p, data, 'B');
    EXPECT_EQ(a, bytes_of(data.inputs.at("A")));  // row-major A as it is
    const std::vector<uint8_t> rows = bytes_of(data.inputs.at("B"));
    ASSERT_EQ(b.size(), rows.size());
    // B is k x n = 2 x 5 row-major; column-major it is element (r, c) at c * 2 + r.
    for (std::size_t r = 0; r < 2; ++r)
        for (std::size_t c = 0; c < 5; ++c)
            for (std::size_t byte = 0; byte < 2; ++byte)
                EXPECT_EQ(b[(c * 2 + r) * 2 + byte], rows[(r * 5 + c) * 2 + byte]) << r << "," << c;
    EXPECT_NE(b, rows);
}

}  // namespace
}  // namespace evg::upstream::corpus
