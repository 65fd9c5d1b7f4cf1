// The file format of a saved failure (props/regression.hpp). Saved files under props/regressions/ are
// replayed on the model, property by property, by evg_props_model_tests (Regressions.<file>).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "evg/hw/fnv1a.hpp"
#include "evg/props/generators.hpp"
#include "evg/props/regression.hpp"

using namespace evg;
using namespace evg::props;

// A saved case reads back as the case that was saved.
TEST(RegressionFiles, SaveThenLoadIsTheCase) {
    Spec s;
    s.m = 33;
    s.n = 65;
    s.k = 1;
    s.data = DataMode::Special;
    s.data_seed = 17;
    s.cores = 3;
    s.sched_seed = 5;
    s.genes = {make_gene(GeneOp::RowBroadcast), make_gene(GeneOp::Compute, 1)};
    const Case c = decode(s);
    const auto dir = std::filesystem::temp_directory_path() / "evg_props_regressions_test";
    const auto path = save_case(c, "Props/ModelMatchesOracle", dir);
    EXPECT_EQ(path.extension(), ".evg");
    EXPECT_EQ(load_case(path), c);
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_EQ(property_from_text(ss.str()), "Props/ModelMatchesOracle");
    // Named by the project's content hash of the text, the same name under every standard library.
    EXPECT_EQ(path.filename().string(),
              "Props_ModelMatchesOracle-" + evg::hw::fnv1a64_hex(ss.str()) + ".evg");
    EXPECT_NE(ss.str().find("# case data=float data_seed=17 cores=3 sched=5\n"), std::string::npos)
        << ss.str();
    std::filesystem::remove_all(dir);
}
