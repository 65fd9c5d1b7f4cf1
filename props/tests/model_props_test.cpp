// The properties of props/README.md over random cases run through the real library on the model
// (evg::graph::run_on_model), each asserted with RC_ASSERT inside the property:
//   1. outputs equal the oracle's: bit-exact for exact-friendly data, the per-functor bound otherwise
//      (NaN-aware), and for Add reductions of float data the summation-order bound (check_sum_bound);
//   2. no violation from any checker; the UB peak is within UB_SIZE and equals the prediction
//   (ub_expectation);
//   3. for every (core, HardEvent, id) the trace has as many SetFlags as WaitFlags; nothing is left set and
//      the cross-core counters return to zero (the report's flag_left_set / counter_left_nonzero checks);
//   6. outputs do not depend on the number of cores, the computeLength, the block swizzle or the adversarial
//      scheduler's seed;
//   7. metamorphic rewrites keep the result bit for bit: commuting the inputs of Add/Mul/Max/Min; a widening
//      Cast followed by the narrowing one; an n-ary Compute split into a chain of binary ones.
// And the planted-fault demonstration (§4): with RowBroadcast's missing barrier switched on, the race-free
// property fails on AtlasA2 and shrinks to at most 4 nodes.
// Every run is judged by lib/verify (verify::judge for properties 1-3, verify::judge_report and
// verify::compare_runs for 6 and 7), the same judge as the conformance catalogue's and `evgcheck run`'s, and
// a failure goes through require_clean, which tags it (the shrinker keeps that tag).
//
// Ctest entries: each TEST is one entry (gtest_discover_tests); the oracle property is split into shards of
// different seeds so that each stays well under two minutes on one core. EVG_PROPS_CASES multiplies every
// case count (the `long` entries set it to 10).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "catlass/epilogue/fusion/upstream_hazards.hpp"
#include "evg/graph/run.hpp"
#include "evg/graph/ub_budget.hpp"
#include "evg/hw/numeric/cast_rules.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/props/coverage.hpp"
#include "evg/props/generators.hpp"
#include "evg/props/model_property.hpp"
#include "evg/props/regression.hpp"
#include "evg/props/require.hpp"
#include "evg/props/runner.hpp"
#include "evg/verify/compare.hpp"
#include "evg/verify/data.hpp"
#include "evg/verify/judge.hpp"

using namespace evg;
using namespace evg::props;

namespace {

// EVG_PROPS_PLANTED=NAME[,NAME] (what `evgcheck check --planted` sets): the upstream hazards switched on for
// every property of this process (docs/hazards.md), so that a user can watch a property fail, shrink and
// replay. Unset: the library as it is.
Catlass::Epilogue::Fusion::UpstreamHazards planted_hazards() {
    Catlass::Epilogue::Fusion::UpstreamHazards h;
    const char* env = std::getenv("EVG_PROPS_PLANTED");
    if (env == nullptr) return h;
    const std::string names = env;
    for (std::size_t start = 0; start <= names.size();) {
        const std::size_t comma = std::min(names.find(',', start), names.size());
        const std::string name = names.substr(start, comma - start);
        if (!name.empty() && !Catlass::Epilogue::Fusion::set_upstream_hazard(h, name)) {
            std::cerr << "EVG_PROPS_PLANTED: no upstream hazard is called '" << name << "'\n";
            std::_Exit(2);
        }
        start = comma + 1;
    }
    return h;
}
// Constructed before main on the thread that runs the properties (their kernels run as fibers on it).
const Catlass::Epilogue::Fusion::ScopedUpstreamHazards kPlanted(planted_hazards());

// run_case and judge_case are props/model_property.hpp.
CaseRun run(const Case& c, uint32_t cores, uint64_t sched_seed, const graph::Problem* other = nullptr,
            graph::Swizzle swizzle = graph::Swizzle::Rows3) {
    return run_case(c, cores, sched_seed, other, swizzle);
}

// A count the property kept (props::tally: it reaches the outcome from every worker process with jobs > 1).
long long tally_of(const Outcome& o, const std::string& name) {
    const auto it = o.tallies.find(name);
    return it == o.tallies.end() ? 0 : it->second;
}

RunConfig config(int cases, uint64_t seed) {
    RunConfig cfg;
    cfg.cases = scaled_cases(cases);
    cfg.seed = env_seed(seed);
    cfg.jobs = env_jobs(1);  // EVG_PROPS_JOBS, what `evgcheck check --jobs` sets
    cfg.shrink_seconds = 60;
    // A failure is saved under the build folder; into props/regressions/ (a test of the next build) only when
    // asked for (props/README.md).
    cfg.regression_dir = EVG_PROPS_REGRESSION_DIR;
    if (!std::getenv("EVG_PROPS_NO_SAVE"))
        cfg.save_dir =
            std::getenv("EVG_PROPS_SAVE_TO_SOURCE") ? EVG_PROPS_REGRESSION_DIR : EVG_PROPS_SAVE_DIR;
    return cfg;
}

// Properties 1, 2 and 3 on one run: verify::judge finds nothing (no violation, the UB peak equals
// verify::ub_expectation, flags balanced, every output written and equal to the oracle). As
// props::model_matches_oracle_and_is_clean, counting the outputs left uncompared.
void oracle_property(const Case& c) {
    const verify::Verdict v = judge_case(c);
    tally("outputs not compared", v.not_compared);  // overflow_domain_nodes
    require_clean(v);
}

void run_oracle_shard(const char* name, int cases, uint64_t seed, bool coverage_check,
                      const GenConfig& gen = {}) {
    Coverage cov;
    const auto t0 = std::chrono::steady_clock::now();
    RunConfig cfg = config(cases, seed);
    cfg.gen = gen;
    const Outcome o = check_property(name, oracle_property, cfg, &cov);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_TRUE(o.ok) << o.report;
    // What evgcheck check reads (rapidcheck's own line for checkTestable is not printed).
    std::cout << fmt::format("OK, passed {} tests\n", o.passed);
    std::cout << fmt::format(
        "{}: {} cases in {:.1f} s ({:.0f}/s), each with the UB peak equal to the prediction; {} outputs "
        "after "
        "an overflowing Silu/Sigmoid not compared\n",
        name, o.passed, secs, o.passed / secs, tally_of(o, "outputs not compared"));
    if (!coverage_check) return;
    std::cout << cov.table();
    // The shares are stated for the default run; a few dozen cases (evgcheck check --cases 50) cannot reach
    // 0.3% of a functor, so they are only printed then.
    if (cov.cases() < 500) {
        std::cout << "(coverage shares are checked from 500 cases on)\n";
        return;
    }
    const std::vector<std::string> unmet = cov.unmet(default_requirements());
    EXPECT_TRUE(unmet.empty()) << fmt::format("{}", fmt::join(unmet, "\n"));
}

// ---- metamorphic rewrites (property 7) ----

// Inserts `added` at position pos; indices >= pos in the existing nodes move up. The added nodes' inputs
// are final indices.
graph::Graph insert_nodes(const graph::Graph& g, int pos, const std::vector<graph::Node>& added) {
    graph::Graph out = g;
    const int shift = static_cast<int>(added.size());
    for (graph::Node& n : out.nodes)
        for (int& in : n.inputs)
            if (in >= pos) in += shift;
    out.nodes.insert(out.nodes.begin() + pos, added.begin(), added.end());
    return out;
}

// A legal round mode for an exact conversion (a widening one, or the way back of a widened value): the
// arch may accept only CAST_NONE for a widening Cast; both modes round the same when nothing is lost.
std::optional<RoundMode> exact_mode(ArchId arch, DType from, DType to) {
    for (RoundMode m : {RoundMode::CAST_NONE, RoundMode::CAST_RINT})
        if (hw::cast_legal(arch, from, to, m)) return m;
    return std::nullopt;
}

graph::Node cast_node(DType to, DType from, RoundMode m, int input) {
    graph::Node n;
    n.kind = NodeKind::Cast;
    n.element = to;
    n.from = from;
    n.round = m;
    n.inputs = {input};
    return n;
}

// The problem with a new graph: computeLength kept unless the graph no longer fits it.
std::optional<graph::Problem> with_graph(const graph::Problem& p, graph::Graph g) {
    graph::Problem q = p;
    q.graph = std::move(g);
    const uint32_t max_cl = graph::max_compute_length(q.graph, q.arch, q.path);
    if (max_cl == 0) return std::nullopt;
    q.compute_length = std::min(q.compute_length, max_cl);
    return q;
}

// Commutes the first two inputs of every Add/Mul/Max/Min (n-ary ones too: ((a op b) op c) ...).
std::optional<graph::Problem> commuted(const graph::Problem& p) {
    graph::Graph g = p.graph;
    bool changed = false;
    for (graph::Node& n : g.nodes)
        if (n.kind == NodeKind::Compute && n.inputs.size() >= 2 && n.inputs[0] != n.inputs[1] &&
            (n.fn == Functor::Add || n.fn == Functor::Mul || n.fn == Functor::Max || n.fn == Functor::Min)) {
            std::swap(n.inputs[0], n.inputs[1]);
            changed = true;
        }
    if (!changed) return std::nullopt;
    return with_graph(p, std::move(g));
}

// After a non-root node of half or bfloat16 (`pick` chooses among them), a Cast to float and a Cast back
// (exact both ways); its consumers read the narrowing Cast.
std::optional<graph::Problem> widened(const graph::Problem& p, std::size_t pick) {
    std::vector<int> candidates;
    for (int i = 0; i + 1 < static_cast<int>(p.graph.nodes.size()); ++i) {
        const DType t = p.graph.nodes[static_cast<std::size_t>(i)].element;
        if ((t == DType::f16 || t == DType::bf16) && exact_mode(p.arch, t, DType::f32) &&
            exact_mode(p.arch, DType::f32, t))
            candidates.push_back(i);
    }
    if (candidates.empty()) return std::nullopt;
    const int i = candidates[pick % candidates.size()];
    const DType t = p.graph.nodes[static_cast<std::size_t>(i)].element;
    graph::Graph g = insert_nodes(p.graph, i + 1,
                                  {cast_node(DType::f32, t, *exact_mode(p.arch, t, DType::f32), i),
                                   cast_node(t, DType::f32, *exact_mode(p.arch, DType::f32, t), i + 1)});
    for (std::size_t j = static_cast<std::size_t>(i) + 3; j < g.nodes.size(); ++j)
        for (int& in : g.nodes[j].inputs)
            if (in == i) in = i + 2;
    return with_graph(p, std::move(g));
}

// The first Compute with three or more inputs becomes a chain of binary Computes of the same functor and
// ElementCompute: ((a op b) op c) op d. The n-ary node rounds after every step in the same order, so the
// chain is bit-identical for every functor with an unbounded arity.
std::optional<graph::Problem> split(const graph::Problem& p) {
    for (std::size_t i = 0; i < p.graph.nodes.size(); ++i) {
        const graph::Node& n = p.graph.nodes[i];
        if (n.kind != NodeKind::Compute || n.inputs.size() < 3) continue;
        const int pos = static_cast<int>(i);
        std::vector<graph::Node> added;
        for (std::size_t k = 1; k + 1 < n.inputs.size(); ++k) {
            graph::Node step = n;
            step.inputs = {k == 1 ? n.inputs[0] : pos + static_cast<int>(k) - 2, n.inputs[k]};
            added.push_back(step);
        }
        graph::Graph g = insert_nodes(p.graph, pos, added);
        graph::Node& last = g.nodes[i + added.size()];
        last.inputs = {pos + static_cast<int>(added.size()) - 1, n.inputs.back()};
        return with_graph(p, std::move(g));
    }
    return std::nullopt;
}

// Both runs clean (verify::judge_report: checkers, flags) and their outputs the same (verify::compare_runs,
// which also finds an element either run never wrote).
void require_same(const Case& c, const CaseRun& a, const CaseRun& b, const std::string& context) {
    require_clean(verify::judge_report(a.model.report, a.model.trace), "the first run:");
    require_clean(verify::judge_report(b.model.report, b.model.trace), "the second run (" + context + "):");
    const oracle::OracleResult golden = oracle::evaluate(c.problem, a.inputs);
    require_clean(verify::compare_runs(c.problem, a.model, b.model, golden,
                                       verify::exact_friendly(a.exact_data, c.problem, golden)),
                  context + ":");
}

// Runs the rewritten problem on the case's data and compares with the original run.
void same_result(const Case& c, const graph::Problem& q) {
    const CaseRun a = run(c, c.cores, 0);
    const CaseRun b = run(c, c.cores, 0, &q);
    require_same(c, a, b, "the rewritten problem");
}

// Metamorphic properties: generated cases, and those the rewrite applies to (the others are discarded).

void run_property(const char* name, const Property& prop, int cases, uint64_t seed) {
    const auto t0 = std::chrono::steady_clock::now();
    RunConfig cfg = config(cases, seed);
    cfg.max_discard_ratio = 100;  // a rewrite applies to 10-70% of the generated cases
    const Outcome o = check_property(name, prop, cfg);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_TRUE(o.ok) << o.report;
    std::cout << fmt::format("OK, passed {} tests\n", o.passed);
    std::cout << fmt::format("{}: {} cases in {:.1f} s{}\n", name, o.passed, secs,
                             tally_of(o, "generated")
                                 ? fmt::format(" (the rewrite applied to {} of {} generated cases)",
                                               tally_of(o, "applied"), tally_of(o, "generated"))
                                 : "");
    // rapidcheck gives up (and reports success) after too many discards: hold it to the case count.
    EXPECT_GE(o.passed, scaled_cases(cases)) << name << " gave up after discarding too many cases";
}

void invariance(const Case& c) {
    const CaseRun a = run(c, c.cores, 0);
    const uint32_t max_cl = graph::max_compute_length(c.problem.graph, c.problem.arch, c.problem.path);
    graph::Problem q = c.problem;
    q.compute_length = c.problem.compute_length == 32 ? max_cl : 32;
    const uint32_t other_cores = c.cores % 4 + 1;
    // The other swizzle where run_on_model has it (the small tile of every generated case).
    const graph::Swizzle sw = c.problem.tile == kSmallTile ? graph::Swizzle::Cols1 : graph::Swizzle::Rows3;
    const CaseRun b = run(c, other_cores, c.sched_seed | 1, &q, sw);
    require_same(c, a, b,
                 fmt::format("cores {} -> {}, computeLength {} -> {}, scheduler seed {}", c.cores,
                             other_cores, c.problem.compute_length, q.compute_length, c.sched_seed | 1));
}

void commute_property(const Case& c) {
    const auto q = commuted(c.problem);
    tally("generated");
    RC_PRE(q.has_value());
    tally("applied");
    same_result(c, *q);
}

void widen_property(const Case& c) {
    const auto q = widened(c.problem, c.data_seed);
    tally("generated");
    RC_PRE(q.has_value());
    tally("applied");
    same_result(c, *q);
}

void split_property(const Case& c) {
    const auto q = split(c.problem);
    tally("generated");
    RC_PRE(q.has_value());
    tally("applied");
    same_result(c, *q);
}

// Properties 1-3 run in six shards (one ctest entry each, a few seconds) that differ in seed and in what they
// stress, so that they differ under one EVG_PROPS_SEED too: the default mix (the first also checks the
// coverage shares and prints the distribution), mostly float data, and bigger graphs over more tiles, twice
// each.
GenConfig float_heavy() {
    GenConfig g;
    g.float_share = 70;
    return g;
}
GenConfig big_graphs() {
    GenConfig g;
    g.max_genes = 12;
    g.max_tiles = 3;
    return g;
}

// The properties of this binary, the one list: each is registered as the gtest Props.<name> (the ctest
// entry, and what `evgcheck check` lists and runs), is the name its failures are saved under (the
// regression file's header), and is what a saved regression re-runs.
struct PropertyEntry {
    const char* name;  // gtest name in suite Props; "Props/<name>" in reports and regression files
    Property property;
    int cases;
    uint64_t seed;
    enum Kind { oracle_shard, metamorphic } kind;
    bool coverage_check = false;  // oracle shards: check the coverage shares (the first shard)
    GenConfig gen = {};
};

const std::vector<PropertyEntry>& property_table() {
    using K = PropertyEntry;
    static const std::vector<PropertyEntry> all = {
        {"ModelMatchesOracleAndCheckersAreClean", oracle_property, 3000, 11, K::oracle_shard, true, {}},
        {"ModelMatchesOracleShard2", oracle_property, 3000, 21, K::oracle_shard, false, float_heavy()},
        {"ModelMatchesOracleShard3", oracle_property, 3000, 31, K::oracle_shard, false, big_graphs()},
        {"ModelMatchesOracleShard4", oracle_property, 3000, 41, K::oracle_shard, false, {}},
        {"ModelMatchesOracleShard5", oracle_property, 3000, 51, K::oracle_shard, false, float_heavy()},
        {"ModelMatchesOracleShard6", oracle_property, 3000, 61, K::oracle_shard, false, big_graphs()},
        {"OutputDoesNotDependOnCoresComputeLengthOrSchedule",
         invariance,
         4500,
         12,
         K::metamorphic,
         false,
         {}},
        {"CommutingInputsKeepsTheResult", commute_property, 3000, 13, K::metamorphic, false, {}},
        {"WideningThenNarrowingCastKeepsTheResult", widen_property, 3000, 14, K::metamorphic, false, {}},
        {"SplittingAnNaryComputeKeepsTheResult", split_property, 2100, 15, K::metamorphic, false, {}},
    };
    return all;
}

std::string full_name(const PropertyEntry& e) {
    return std::string("Props/") + e.name;
}

class PropertyTest : public ::testing::Test {
  public:
    explicit PropertyTest(const PropertyEntry& e) : e_(e) {}
    void TestBody() override {
        const std::string name = full_name(e_);
        if (e_.kind == PropertyEntry::oracle_shard)
            run_oracle_shard(name.c_str(), e_.cases, e_.seed, e_.coverage_check, e_.gen);
        else
            run_property(name.c_str(), e_.property, e_.cases, e_.seed);
    }

  private:
    const PropertyEntry& e_;
};

const bool properties_registered = [] {
    for (const PropertyEntry& e : property_table())
        ::testing::RegisterTest("Props", e.name, nullptr, nullptr, __FILE__, __LINE__,
                                [&e]() -> ::testing::Test* { return new PropertyTest(e); });
    return true;
}();

// What a saved case fails now: the failure of each property of the table on it (only the property named in
// the file's header when the table has it, every property otherwise). Empty when it passes them all.
std::vector<std::string> regression_failures(const std::string& text) {
    const Case c = case_from_text(text);
    const std::string name = property_from_text(text);
    const bool known = std::any_of(property_table().begin(), property_table().end(),
                                   [&](const PropertyEntry& e) { return full_name(e) == name; });
    std::vector<std::string> out;
    for (const PropertyEntry& e : property_table()) {
        if (known && full_name(e) != name) continue;
        if (const auto failure = failure_of(e.property, c))
            out.push_back(full_name(e) + " fails: " + failure->message);
    }
    return out;
}

std::string read_text(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::filesystem::path> regression_files() {
    std::vector<std::filesystem::path> out;
    const std::filesystem::path dir = EVG_PROPS_REGRESSION_DIR;
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) return out;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".evg") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

// Every saved failure under props/regressions/ replays here, on the model, as an ordinary test
// (Regressions.<file stem>): the case must pass the property it once failed.
class Regression : public ::testing::Test {
  public:
    explicit Regression(std::filesystem::path file) : file_(std::move(file)) {}
    void TestBody() override {
        for (const std::string& failure : regression_failures(read_text(file_)))
            ADD_FAILURE() << file_ << ":\n" << failure;
    }

  private:
    std::filesystem::path file_;
};

// props/regressions/ ships saved cases; a tree without them fails Regressions.TheFolderHoldsSavedCases
// instead of registering nothing.
class NoRegressions : public ::testing::Test {
    void TestBody() override {
        ADD_FAILURE() << EVG_PROPS_REGRESSION_DIR
                      << " holds no saved case (*.evg): the regression replay tests "
                      << "nothing";
    }
};

const bool regressions_registered = [] {
    const std::vector<std::filesystem::path> files = regression_files();
    if (files.empty())
        ::testing::RegisterTest("Regressions", "TheFolderHoldsSavedCases", nullptr, nullptr, __FILE__,
                                __LINE__, []() -> ::testing::Test* { return new NoRegressions; });
    for (const std::filesystem::path& file : files)
        ::testing::RegisterTest("Regressions", file.stem().string().c_str(), nullptr, nullptr, __FILE__,
                                __LINE__, [file]() -> ::testing::Test* { return new Regression(file); });
    return true;
}();

}  // namespace

// The regression replay runs the properties on the model, not the oracle alone: each shipped case that was
// found with an upstream hazard switched on (its header names it) fails again when that hazard is on.
TEST(RegressionReplay, TheShippedRowBroadcastCaseFailsAgainWithTheHazardOn) {
    int replayed = 0;
    for (const std::filesystem::path& file : regression_files()) {
        const std::string text = read_text(file);
        if (text.find("# found with: row_broadcast_no_barrier") == std::string::npos) continue;
        ++replayed;
        EXPECT_TRUE(regression_failures(text).empty()) << file << " fails with the library as it is";
        Catlass::Epilogue::Fusion::UpstreamHazards h;
        h.row_broadcast_no_barrier = true;
        Catlass::Epilogue::Fusion::ScopedUpstreamHazards scoped(h);
        const std::vector<std::string> failures = regression_failures(text);
        ASSERT_FALSE(failures.empty()) << file << " passes with RowBroadcast's barrier left out";
        EXPECT_NE(failures.front().find("race"), std::string::npos) << failures.front();
    }
    EXPECT_GE(replayed, 1) << "props/regressions/ holds no case found with row_broadcast_no_barrier";
}

// The property names are one list: every property of the table is a test of this binary and is named in
// props/README.md's table of properties.
TEST(PropertyTable, EveryPropertyIsRegisteredAndDocumented) {
    std::set<std::string> registered;
    const ::testing::UnitTest& u = *::testing::UnitTest::GetInstance();
    for (int i = 0; i < u.total_test_suite_count(); ++i) {
        const ::testing::TestSuite& suite = *u.GetTestSuite(i);
        if (std::string(suite.name()) != "Props") continue;
        for (int j = 0; j < suite.total_test_count(); ++j) registered.insert(suite.GetTestInfo(j)->name());
    }
    const std::string readme =
        read_text(std::filesystem::path(EVG_PROPS_REGRESSION_DIR).parent_path() / "README.md");
    for (const PropertyEntry& e : property_table()) {
        EXPECT_TRUE(registered.count(e.name)) << e.name;
        std::string shard = e.name;
        // The README names the shards as `…ShardN` after the first one.
        if (const size_t at = shard.find("Shard"); at != std::string::npos)
            shard = fmt::format("…{}", shard.substr(at));
        EXPECT_NE(readme.find("`" + shard + "`"), std::string::npos)
            << e.name << " is not in props/README.md";
    }
}

// The planted fault (§4): upstream's missing PipeBarrier<PIPE_V> after RowBroadcast races on AtlasA2. The
// race-free property must fail for every seed and shrink to at most 4 nodes in most runs; the median node
// count and shrink time of the minimal counterexample over 20 seeds (EVG_PROPS_PLANTED_SEEDS) are printed.
TEST(Props, PlantedRowBroadcastHazardIsFoundAndShrunk) {
    Catlass::Epilogue::Fusion::UpstreamHazards h;
    h.row_broadcast_no_barrier = true;
    Catlass::Epilogue::Fusion::ScopedUpstreamHazards scoped(h);
    std::vector<int> nodes;
    std::vector<double> secs;
    const int seeds =
        std::getenv("EVG_PROPS_PLANTED_SEEDS") ? std::atoi(std::getenv("EVG_PROPS_PLANTED_SEEDS")) : 20;
    for (int s = 1; s <= seeds; ++s) {
        RunConfig cfg;
        cfg.cases = 400;
        cfg.seed = 1000 + static_cast<uint64_t>(s);
        cfg.gen.both_archs = false;
        cfg.shrink_seconds = 60;
        const Outcome o = check_property(
            "Props/PlantedRowBroadcastHazardIsFoundAndShrunk",
            [](const Case& c) {
                const CaseRun r = run(c, c.cores, c.sched_seed);
                RC_ASSERT(r.model.report.count(hw::ViolationKind::race) == 0u);
            },
            cfg);
        ASSERT_FALSE(o.ok) << "seed " << s;
        ASSERT_TRUE(o.minimal.has_value());
        nodes.push_back(node_count(*o.minimal));
        secs.push_back(o.shrink_seconds);
        if (s == 1) std::cout << o.report;
    }
    std::vector<int> sorted_nodes = nodes;
    std::sort(sorted_nodes.begin(), sorted_nodes.end());
    std::sort(secs.begin(), secs.end());
    const std::size_t mid = sorted_nodes.size() / 2;
    std::cout << fmt::format(
        "planted RowBroadcast hazard over {} seeds: median {} nodes (min {}, max {}; per seed {}), "
        "median shrink time {:.2f} s (max {:.2f} s)\n",
        nodes.size(), sorted_nodes[mid], sorted_nodes.front(), sorted_nodes.back(), fmt::join(nodes, " "),
        secs[mid], secs.back());
    EXPECT_LE(sorted_nodes[mid], 4);
}
