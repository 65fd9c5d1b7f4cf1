// Every saved failure under props/regressions/ is an ordinary test case from then on: it parses, validates,
// evaluates on the oracle (and, with the model wired, passes the properties it once failed).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "evg/graph/validate.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/props/generators.hpp"
#include "evg/props/regression.hpp"

using namespace evg;
using namespace evg::props;

namespace {

class Regression : public ::testing::Test {
  public:
    explicit Regression(std::filesystem::path file) : file_(std::move(file)) {}
    void TestBody() override {
        const Case c = load_case(file_);
        for (const graph::Diagnostic& d : graph::validate(c.problem))
            EXPECT_NE(d.severity, graph::Severity::Error) << d.format();
        const oracle::OracleResult r = oracle::evaluate(c.problem, make_inputs(c));
        EXPECT_FALSE(r.outputs.empty());
    }

  private:
    std::filesystem::path file_;
};

const bool registered = [] {
    const std::filesystem::path dir = EVG_PROPS_REGRESSION_DIR;
    if (!std::filesystem::exists(dir)) return false;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        if (e.path().extension() != ".evg") continue;
        const std::filesystem::path& file = e.path();
        ::testing::RegisterTest("Regressions", file.stem().string().c_str(), nullptr, nullptr, __FILE__,
                                __LINE__, [file]() -> ::testing::Test* { return new Regression(file); });
    }
    return true;
}();

}  // namespace

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
    EXPECT_NE(ss.str().find("# case data=float data_seed=17 cores=3 sched=5\n"), std::string::npos)
        << ss.str();
    std::filesystem::remove_all(dir);
}
