// The node suite on upstream's nodes fails where upstream's code is wrong: two cells (Compute/float,
// AuxLoad/float) compiled against a copy of the checkout whose Add functor subtracts
// (upstream/CMakeLists.txt, the build folder only). The Compute cell's cases fail naming a wrong value, the
// AuxLoad cell's pass; each case's replay line names the checkout. Another checkout is compiled at run time
// (its failure to compile is each case's message); a folder that is none, or a family that is none, is
// refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
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
    // The default family: the cells compiled into this test against the planted copy.
    UpstreamSuiteOptions o{EVG_PLANTED_ROOT, "evgcheck", "/tmp/replays", "", {"uf"}, {}};
    std::vector<conformance::CaseSpec> specs = upstream_suite(o).cases;
    std::erase_if(specs, [](const conformance::CaseSpec& s) {
        return !s.id.starts_with("Upstream/Compute/Ascend950/float/gm/uf/") &&
               !s.id.starts_with("Upstream/AuxLoad/Ascend950/float/gm/uf/");
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

// Another checkout, or another family, is compiled at run time: a folder with an empty include/catlass is a
// checkout by its layout, and its cases fail with the compile's words (the one library is built once, when
// the first case runs). A folder that is no checkout, or a family that is none, is refused naming the option.
TEST(UpstreamConformancePlanted, AnotherCheckoutIsCompiledAtRunTime) {
    const std::filesystem::path other =
        std::filesystem::temp_directory_path() / "evg_upstream_other_checkout";
    std::filesystem::create_directories(other / "include" / "catlass");
    UpstreamSuiteOptions o{
        other.string(), "evgcheck", "/tmp/replays", "Upstream/AccLoad/Ascend950/float/gm/uf/full/*", {}, {}};
    o.work_dir = std::filesystem::temp_directory_path() / "evg_upstream_other_checkout_work";
    const UpstreamSuite suite = upstream_suite(o);
    ASSERT_EQ(suite.cases.size(), 1u);
    EXPECT_EQ(suite.cases[0].family, "uf");
    const CaseResult r = suite.cases[0].run();
    EXPECT_EQ(r.status, Status::fail);
    EXPECT_NE(r.message.find("does not compile the cells"), std::string::npos) << r.message;
    EXPECT_NE(r.replay.find("--catlass-root " + std::filesystem::weakly_canonical(other).string()),
              std::string::npos)
        << r.replay;
    EXPECT_NE(suite.kernel_compilers().find("did not compile"), std::string::npos)
        << suite.kernel_compilers();

    o.root = "/";
    EXPECT_THROW((void)upstream_suite(o), Error);
    o.root = EVG_PLANTED_ROOT;
    o.families = {"uf", "unit-flag"};
    try {
        (void)upstream_suite(o);
        FAIL() << "accepted the family unit-flag";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("'unit-flag' is not a configuration family (the families: uf, "),
                  std::string::npos)
            << e.what();
    }
}

// Every family of the model has cases for every cell whose problem takes it, and ids name the family; a cell
// a family's configuration cannot take (int8 under the unit flag with L1 residency) is left out and named,
// and the default family keeps every cell.
TEST(UpstreamConformancePlanted, EveryCellRunsUnderEveryFamily) {
    UpstreamSuiteOptions o{EVG_PLANTED_ROOT, "evgcheck", "/tmp/replays", "", {}, {}};
    const UpstreamSuite suite = upstream_suite(o);
    std::map<std::string, int> per_family;
    for (const conformance::CaseSpec& s : suite.cases) {
        ++per_family[s.family];
        EXPECT_NE(s.id.find("/" + s.family + "/"), std::string::npos) << s.id;
    }
    EXPECT_EQ(per_family.size(), upstream_family_ids().size());
    for (const auto& [family, n] : per_family) {
        int left_out = 0;
        for (const std::string& l : suite.left_out)
            if (l.find(" under " + family + ": ") != std::string::npos) {
                EXPECT_NE(family, "uf") << l;
                EXPECT_NE(l.find("unit-flag-int8"), std::string::npos) << l;
                ++left_out;
            }
        EXPECT_EQ(n<per_family["uf"], left_out> 0) << family;
    }
}

}  // namespace
}  // namespace evg::upstream
