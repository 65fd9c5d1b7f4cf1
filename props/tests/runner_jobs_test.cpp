// The property runner with jobs > 1 (worker processes sharing the case budget, runner.hpp): a passing
// property runs the same number of cases as with one job; a planted failure is found and shrunk in its
// worker, the lowest-numbered failing worker is the one reported, and its replay line (the worker's seed and
// case count, one job) draws the same case again, in this process and run through a shell as printed.
// The properties are generation-only (no model), so each run takes milliseconds.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "evg/hw/error.hpp"
#include "evg/props/coverage.hpp"
#include "evg/props/regression.hpp"
#include "evg/props/runner.hpp"

using namespace evg;
using namespace evg::props;

namespace {

// The planted fault: a problem of 20 rows or more. Its minimal case has exactly 20 rows.
void fewer_than_20_rows(const Case& c) {
    RC_ASSERT(c.problem.m < 20);
}

RunConfig planted_config(int cases, uint64_t seed, int jobs) {
    RunConfig cfg;
    cfg.cases = cases;
    cfg.seed = seed;
    cfg.jobs = jobs;
    cfg.shrink_seconds = 60;
    return cfg;
}

std::string self_path() {
    return std::filesystem::read_symlink("/proc/self/exe").string();
}

// The replay command of a failure report (the line after "--- replay ---").
std::string replay_line(const std::string& report) {
    const std::string mark = "--- replay ---\n";
    const size_t at = report.find(mark);
    if (at == std::string::npos) return {};
    const size_t from = at + mark.size();
    return report.substr(from, report.find('\n', from) - from);
}

}  // namespace

TEST(RunnerJobs, APassingPropertyRunsTheSameCasesInTotalAsOneJob) {
    const Property passes = [](const Case& c) {
        tally("calls");
        RC_ASSERT(node_count(c) >= 1);
    };
    for (int jobs : {1, 2, 3}) {
        RunConfig cfg;
        cfg.cases = 101;  // 51 + 50, and 34 + 34 + 33
        cfg.seed = 17;
        cfg.jobs = jobs;
        int last_progress = 0;
        cfg.progress = [&](int done, int total) {
            EXPECT_EQ(total, 101);
            EXPECT_EQ(done, last_progress + 1);
            last_progress = done;
        };
        Coverage cov;
        const Outcome o = check_property("RunnerJobs/Passing", passes, cfg, &cov);
        EXPECT_TRUE(o.ok) << "jobs " << jobs << ": " << o.report;
        EXPECT_EQ(o.passed, 101) << "jobs " << jobs;
        EXPECT_EQ(last_progress, 101) << "jobs " << jobs;
        EXPECT_EQ(cov.cases(), 101) << "jobs " << jobs;  // every worker's coverage reaches the caller
        EXPECT_EQ(o.tallies.count("calls") ? o.tallies.at("calls") : 0, 101) << "jobs " << jobs;
    }
    EXPECT_NE(worker_seed(17, 0), worker_seed(17, 1));
    EXPECT_NE(worker_seed(17, 1), worker_seed(17, 2));
}

// Worker k of a run of seed S draws what a one-job run of worker_seed(S, k) and its share of the cases
// draws: the reported failure is that of the lowest-numbered worker whose own run fails, whichever worker
// failed first in time.
TEST(RunnerJobs, TheLowestFailingWorkerIsReportedAndItsSeedReplaysIt) {
    constexpr int kCases = 12;  // 6 per worker: some workers never draw 20 rows
    // A seed whose worker 0 passes and worker 1 fails, and one whose workers both fail.
    std::optional<uint64_t> second_only, both;
    for (uint64_t seed = 1; seed <= 300 && !(second_only && both); ++seed) {
        const Outcome w0 = check_property("RunnerJobs/Planted", fewer_than_20_rows,
                                          planted_config(kCases / 2, worker_seed(seed, 0), 1));
        const Outcome w1 = check_property("RunnerJobs/Planted", fewer_than_20_rows,
                                          planted_config(kCases / 2, worker_seed(seed, 1), 1));
        if (w0.ok && !w1.ok && !second_only) second_only = seed;
        if (!w0.ok && !w1.ok && !both) both = seed;
    }
    ASSERT_TRUE(second_only.has_value()) << "no seed in 1..300 where only worker 1 fails";
    ASSERT_TRUE(both.has_value()) << "no seed in 1..300 where both workers fail";
    for (const auto& [seed, worker] : {std::pair{*second_only, 1}, std::pair{*both, 0}}) {
        const Outcome o =
            check_property("RunnerJobs/Planted", fewer_than_20_rows, planted_config(kCases, seed, 2));
        ASSERT_FALSE(o.ok) << "seed " << seed;
        EXPECT_EQ(o.worker, worker) << "seed " << seed;
        EXPECT_EQ(o.seed, worker_seed(seed, worker));
        EXPECT_EQ(o.cases, kCases / 2);
        ASSERT_TRUE(o.minimal.has_value() && o.first.has_value()) << o.report;
        EXPECT_EQ(o.minimal->problem.m, 20) << o.report;  // shrunk in the worker
        EXPECT_GE(o.first->problem.m, 20);
        // The one-job run the replay line names fails first on the same case (data seed, scheduler seed and
        // all: the shrunk case alone would not tell, every failure shrinks to m = 20) and shrinks it alike.
        const Outcome again =
            check_property("RunnerJobs/Planted", fewer_than_20_rows, planted_config(o.cases, o.seed, 1));
        ASSERT_FALSE(again.ok);
        ASSERT_TRUE(again.minimal.has_value() && again.first.has_value());
        EXPECT_EQ(*again.first, *o.first) << to_text(*again.first, "") << "\nvs\n" << to_text(*o.first, "");
        EXPECT_EQ(*again.minimal, *o.minimal);
        EXPECT_EQ(again.shrink_steps, o.shrink_steps);
    }
}

// The replay line of a failure found with two jobs, run through a shell as printed, finds the same minimal
// case. This test is also the replayed one: it reads its seed, case count and jobs from the environment
// (EVG_PROPS_SEED, EVG_PROPS_CASE_COUNT, EVG_PROPS_JOBS) as the properties of props/ do, and the run that
// the line starts (EVG_RUNNER_JOBS_REPLAYED=1 in front of it) prints its minimal case instead of replaying.
TEST(RunnerJobs, APlantedFailureIsShrunkAndItsReplayLineReproducesIt) {
    RunConfig cfg = planted_config(scaled_cases(60), env_seed(3), env_jobs(2));
    cfg.replay_filter = "RunnerJobs.APlantedFailureIsShrunkAndItsReplayLineReproducesIt";
    const Outcome o = check_property("RunnerJobs/PlantedReplay", fewer_than_20_rows, cfg);
    ASSERT_FALSE(o.ok);
    ASSERT_TRUE(o.minimal.has_value()) << o.report;
    EXPECT_EQ(o.minimal->problem.m, 20) << o.report;
    ASSERT_TRUE(o.first.has_value());
    // The first failing case identifies the run (every failure shrinks to m = 20).
    const std::string minimal = "first failing case:\n" + to_text(*o.first, "RunnerJobs/PlantedReplay") +
                                "minimal case:\n" + to_text(*o.minimal, "RunnerJobs/PlantedReplay");
    std::cout << minimal << "(end)\n";
    if (std::getenv("EVG_RUNNER_JOBS_REPLAYED") != nullptr) return;  // the replayed run: printed above

    ASSERT_GT(cfg.jobs, 1) << "run without EVG_PROPS_JOBS: the test is of the two-job run";
    const std::string line = replay_line(o.report);
    EXPECT_NE(line.find(fmt::format("EVG_PROPS_SEED={} EVG_PROPS_CASE_COUNT={} EVG_PROPS_JOBS=1 ",
                                    worker_seed(cfg.seed, o.worker), o.cases)),
              std::string::npos)
        << o.report;
    // The line names this binary by its absolute path (the default replay_binary) and runs from any folder.
    EXPECT_NE(line.find(self_path()), std::string::npos) << line;
    const auto elsewhere = std::filesystem::temp_directory_path();
    FILE* p = ::popen(
        (std::string("cd '") + elsewhere.string() + "' && EVG_RUNNER_JOBS_REPLAYED=1 " + line + " 2>&1")
            .c_str(),
        "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    const int status = ::pclose(p);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find(minimal + "(end)\n"), std::string::npos) << "replayed: " << line << "\n" << out;
}

namespace {

// The runner's environment (EVG_PROPS_*): a value is taken when it is a whole number in range, and refused
// otherwise naming the variable and what it takes; nothing is read as 0 or as its leading digits.
// The variables as the test's own environment set them (the debug preset sets EVG_PROPS_CASE_COUNT): put back
// when the test ends, and absent while it runs.
class SavedEnvironment {
  public:
    SavedEnvironment() {
        for (const char* name : kNames) {
            const char* v = std::getenv(name);
            saved_.emplace_back(name, v ? std::optional<std::string>(v) : std::nullopt);
            ::unsetenv(name);
        }
    }
    ~SavedEnvironment() {
        for (const auto& [name, v] : saved_) {
            if (v)
                ::setenv(name, v->c_str(), 1);
            else
                ::unsetenv(name);
        }
    }
    SavedEnvironment(const SavedEnvironment&) = delete;
    SavedEnvironment& operator=(const SavedEnvironment&) = delete;

  private:
    static constexpr const char* kNames[] = {"EVG_PROPS_JOBS", "EVG_PROPS_CASE_COUNT", "EVG_PROPS_CASES",
                                             "EVG_PROPS_SEED"};
    std::vector<std::pair<const char*, std::optional<std::string>>> saved_;
};

TEST(RunnerEnvironment, ABadValueIsRefusedNamingTheVariable) {
    const SavedEnvironment saved;
    struct Case {
        const char* name;
        const char* value;
        std::function<void()> read;
    };
    const Case cases[] = {{"EVG_PROPS_JOBS", "two", [] { (void)env_jobs(1); }},
                          {"EVG_PROPS_JOBS", "0", [] { (void)env_jobs(1); }},
                          {"EVG_PROPS_JOBS", "4x", [] { (void)env_jobs(1); }},
                          {"EVG_PROPS_CASE_COUNT", "-5", [] { (void)scaled_cases(10); }},
                          {"EVG_PROPS_CASES", "1e3", [] { (void)scaled_cases(10); }},
                          {"EVG_PROPS_SEED", "18446744073709551616", [] { (void)env_seed(1); }}};
    for (const Case& c : cases) {
        ::setenv(c.name, c.value, 1);
        try {
            c.read();
            ADD_FAILURE() << c.name << "='" << c.value << "' was accepted";
        } catch (const evg::Error& e) {
            EXPECT_EQ(std::string(e.what()).rfind(
                          fmt::format("{}='{}': expected a whole number", c.name, c.value), 0),
                      0u)
                << e.what();
        }
        ::unsetenv(c.name);
    }
    ::setenv("EVG_PROPS_JOBS", "3", 1);
    ::setenv("EVG_PROPS_CASES", "10", 1);
    ::setenv("EVG_PROPS_SEED", "18446744073709551615", 1);
    EXPECT_EQ(env_jobs(1), 3);
    EXPECT_EQ(scaled_cases(7), 70);
    EXPECT_EQ(env_seed(1), 18446744073709551615ull);
    ::unsetenv("EVG_PROPS_JOBS");
    ::unsetenv("EVG_PROPS_CASES");
    ::unsetenv("EVG_PROPS_SEED");
    EXPECT_EQ(env_jobs(2), 2);
    EXPECT_EQ(scaled_cases(7), 7);
}

}  // namespace
