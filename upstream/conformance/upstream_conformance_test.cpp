// The node suite on upstream's nodes fails where upstream's code is wrong: two cells (Compute/float,
// AuxLoad/float) compiled against a copy of the checkout whose Add functor subtracts
// (upstream/CMakeLists.txt, the build folder only). The Compute cell's cases fail naming a wrong value, the
// AuxLoad cell's pass; each case's replay line names the checkout; a checkout other than the compiled one, or
// a folder that is none, is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "evg/conformance/upstream_cells.hpp"
#include "evg/hw/error.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/verify/data.hpp"
#include "upstream_conformance.hpp"

namespace evg::upstream {
namespace {

using conformance::CaseResult;
using conformance::Status;

TEST(UpstreamConformancePlanted, TheBrokenFunctorsCellFailsAndTheOtherPasses) {
    ASSERT_TRUE(EVG_PLANTED_APPLIED) << "the planted fault no longer applies to operations.hpp: update "
                                        "upstream/CMakeLists.txt";
    std::vector<conformance::CaseSpec> specs = upstream_cases(EVG_PLANTED_ROOT, "evgcheck", "/tmp/replays");
    std::erase_if(specs, [](const conformance::CaseSpec& s) {
        return !s.id.starts_with("Upstream/Compute/Ascend950/float/gm/") &&
               !s.id.starts_with("Upstream/AuxLoad/Ascend950/float/gm/");
    });
    ASSERT_EQ(specs.size(), 8u);
    const std::vector<CaseResult> results = conformance::run_cases(specs, "", [](const CaseResult&) {});
    ASSERT_EQ(results.size(), 8u);
    for (const CaseResult& r : results) {
        EXPECT_NE(
            r.replay.find("--catlass-root " + std::filesystem::weakly_canonical(EVG_PLANTED_ROOT).string()),
            std::string::npos)
            << r.replay;
        if (r.node_kind == "Compute") {
            EXPECT_EQ(r.status, Status::fail) << r.id;
            EXPECT_NE(r.message.find("output_mismatch"), std::string::npos) << r.id << ": " << r.message;
        } else {
            EXPECT_EQ(r.status, Status::pass) << r.id << ": " << r.message;
        }
    }
}

// A visitor runs only what its root reaches: every store of every cell must be reached, or its output is
// never written and never judged (the oracle, like the library, leaves an unreached store out).
TEST(UpstreamCells, EveryStoreOfEveryCellIsReachedFromItsRoot) {
    for (const conformance::UpstreamCell& cell : conformance::upstream_cells()) {
        const verify::CaseData data = verify::make_case_data(cell.problem, cell.data, cell.data_seed);
        const oracle::OracleResult golden = oracle::evaluate(cell.problem, data.inputs);
        int stores = 0;
        for (size_t i = 0; i < cell.problem.graph.nodes.size(); ++i) {
            if (cell.problem.graph.nodes[i].kind != graph::NodeKind::AuxStore) continue;
            ++stores;
            EXPECT_TRUE(golden.nodes[i].evaluated) << cell.name << ": node %" << i << " is not reached";
        }
        EXPECT_GE(stores, 1) << cell.name;
    }
}

TEST(UpstreamConformancePlanted, AnotherCheckoutIsRefusedNamingBoth) {
    const std::filesystem::path other =
        std::filesystem::temp_directory_path() / "evg_upstream_other_checkout";
    std::filesystem::create_directories(other / "include" / "catlass");
    try {
        (void)upstream_cases(other.string(), "evgcheck", "/tmp/replays");
        FAIL() << "accepted " << other;
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("not " + std::filesystem::weakly_canonical(other).string()),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW((void)upstream_cases("/", "evgcheck", "/tmp/replays"), Error);
}

}  // namespace
}  // namespace evg::upstream
