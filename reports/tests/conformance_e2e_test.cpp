// End to end: `evgcheck conformance --filter` on three catalogue cases plus the planted failing case. The
// command exits 1, prints the summary line last, and the planted case is failing in all four report files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include "comparable_report.hpp"

namespace {

namespace fs = std::filesystem;

const char* const kFilter = "RowBroadcast/AtlasA2/half/gm/tail*";

std::string slurp(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

struct CliRun {
    int code = -1;
    std::string out, err;
    fs::path dir;
};

CliRun run_conformance(const std::string& name, const std::string& extra_env, const std::string& extra_args) {
    CliRun r;
    r.dir = fs::temp_directory_path() / ("evg_conformance_e2e_" + name);
    fs::remove_all(r.dir);
    fs::create_directories(r.dir);
    const std::string cmd = extra_env + " '" EVGCHECK_BINARY "' conformance --filter '" + kFilter +
                            "' --out '" + (r.dir / "report").string() + "' " + extra_args + " >'" +
                            (r.dir / "stdout").string() + "' 2>'" + (r.dir / "stderr").string() + "'";
    const int status = std::system(cmd.c_str());
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(r.dir / "stdout");
    r.err = slurp(r.dir / "stderr");
    return r;
}

void expect_planted_failing_everywhere(const CliRun& r) {
    ASSERT_EQ(r.code, 1) << r.out << r.err;
    // The summary line is the last line of the output.
    const std::regex last(R"(\nconformance: 3 passed, 1 failed, 0 not applicable in \d+ s\n$)");
    EXPECT_TRUE(std::regex_search(r.out, last)) << r.out;

    const fs::path dir = r.dir / "report";
    const nlohmann::json j = nlohmann::json::parse(slurp(dir / "report.json"));
    EXPECT_EQ(j["summary"]["passed"], 3);
    EXPECT_EQ(j["summary"]["failed"], 1);
    ASSERT_EQ(j["failing"].size(), 1u);
    const std::string id = j["failing"][0]["id"];
    EXPECT_EQ(id.rfind("Planted/", 0), 0u) << id;
    const std::string replay = j["failing"][0]["replay"];
    EXPECT_EQ(replay.rfind(std::string(EVGCHECK_BINARY) + " conformance --filter '" + id + "' --out /", 0),
              0u)
        << replay;
    EXPECT_TRUE(replay.ends_with(" --planted")) << replay;
    // The progress line on stderr gives the same replay, --planted included.
    EXPECT_NE(r.err.find("  replay: " + j["failing"][0]["replay"].get<std::string>() + "\n"),
              std::string::npos)
        << r.err;
    EXPECT_GE(j["cases"].size(), 4u);
    for (const auto& c : j["cases"]) EXPECT_EQ(c["status"], c["id"] == id ? "fail" : "pass") << c["id"];
    EXPECT_NE(r.out.find("FAIL 1/1"), std::string::npos) << r.out;  // the text matrix

    const std::string xml = slurp(dir / "junit.xml");
    EXPECT_NE(xml.find("failures=\"1\""), std::string::npos);
    const std::regex failing("<testcase [^>]*name=\"" + id + "\"[^>]*>\\s*<failure message=");
    EXPECT_TRUE(std::regex_search(xml, failing)) << xml;

    const std::string md = slurp(dir / "report.md");
    EXPECT_NE(md.find("## Failing cases (1)"), std::string::npos);
    EXPECT_NE(md.find("| `" + id + "` |"), std::string::npos) << md;
    EXPECT_NE(md.find("**FAIL** 1/1"), std::string::npos);

    const std::string html = slurp(dir / "report.html");
    EXPECT_NE(html.find("<b>FAILED</b>"), std::string::npos);
    EXPECT_NE(html.find("<h2>Failing cases (1)</h2>"), std::string::npos);
    EXPECT_NE(html.find("<td><code>" + id + "</code></td>"), std::string::npos);
    EXPECT_NE(html.find("<td class=\"fail\""), std::string::npos);
    fs::remove_all(r.dir);
}

TEST(ConformanceCommand, PlantedCaseFailsInEveryFormat) {
    expect_planted_failing_everywhere(run_conformance("option", "", "--planted"));
}

TEST(ConformanceCommand, PlantedCaseThroughTheEnvironment) {
    expect_planted_failing_everywhere(run_conformance("env", "EVGCHECK_CONFORMANCE_PLANTED=1", ""));
}

// A printed replay line runs as printed from another folder, fails the planted case again, and writes its own
// report under --out/replays/ instead of replacing the full one.
TEST(ConformanceCommand, AReplayLineRunsFromAnyFolderAndKeepsTheFullReport) {
    const CliRun r = run_conformance("replay", "", "--planted");
    ASSERT_EQ(r.code, 1) << r.out << r.err;
    const fs::path report = r.dir / "report" / "report.json";
    const std::string before = slurp(report);
    const nlohmann::json j = nlohmann::json::parse(before);
    ASSERT_EQ(j["failing"].size(), 1u);
    const std::string id = j["failing"][0]["id"];
    const std::string replay = j["failing"][0]["replay"];
    std::smatch out;
    ASSERT_TRUE(std::regex_search(replay, out, std::regex(R"(--out (\S+))"))) << replay;
    const fs::path replay_out = out[1].str();
    EXPECT_EQ(replay_out.parent_path(), fs::absolute(r.dir / "report" / "replays")) << replay;
    const fs::path elsewhere = r.dir / "elsewhere";
    fs::create_directories(elsewhere);
    const int status = std::system((std::string("cd '") + elsewhere.string() + "' && " + replay + " >'" +
                                    (r.dir / "replay.out").string() + "' 2>&1")
                                       .c_str());
    EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 1) << slurp(r.dir / "replay.out");
    EXPECT_NE(slurp(r.dir / "replay.out").find("conformance: 0 passed, 1 failed"), std::string::npos)
        << slurp(r.dir / "replay.out");
    EXPECT_EQ(slurp(report), before) << "the replay replaced the full report";
    const nlohmann::json again = nlohmann::json::parse(slurp(replay_out / "report.json"));
    ASSERT_EQ(again["failing"].size(), 1u);
    EXPECT_EQ(again["failing"][0]["id"], id);
    EXPECT_TRUE(fs::is_empty(elsewhere)) << "the replay wrote into the folder it ran from";
    fs::remove_all(r.dir);
}

TEST(ConformanceCommand, PassingRunExitsZero) {
    const CliRun r = run_conformance("pass", "", "");
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_TRUE(std::regex_search(
        r.out, std::regex(R"(\nconformance: 3 passed, 0 failed, 0 not applicable in \d+ s\n$)")))
        << r.out;
    EXPECT_NE(slurp(r.dir / "report" / "report.html").find("<b>ALL PASSED</b>"), std::string::npos);
    fs::remove_all(r.dir);
}

// A time budget that runs out still writes the report of what ran, marked partial everywhere, and does not
// exit 0.
TEST(ConformanceCommand, AnExhaustedTimeBudgetWritesAPartialReport) {
    const CliRun r = run_conformance("partial", "", "--time-budget 0.001");
    EXPECT_EQ(r.code, 3) << r.out << r.err;
    EXPECT_TRUE(std::regex_search(
        r.out, std::regex(R"(\nconformance: 0 passed, 0 failed, 0 not applicable in \d+ s; )"
                          R"(PARTIAL: the time budget of 0 s ran out, 3 cases not run\n$)")))
        << r.out;
    const nlohmann::json j = nlohmann::json::parse(slurp(r.dir / "report" / "report.json"));
    EXPECT_EQ(j["summary"]["partial"], true);
    EXPECT_EQ(j["summary"]["not_run"], 3);
    EXPECT_NE(slurp(r.dir / "report" / "report.md").find("PARTIAL"), std::string::npos);
    const std::string html = slurp(r.dir / "report" / "report.html");
    EXPECT_NE(html.find("<b>PARTIAL</b>"), std::string::npos);
    EXPECT_EQ(html.find("ALL PASSED"), std::string::npos);
    fs::remove_all(r.dir);
}

// Three shards of a run (the filter's three cases and the planted failing one) merge into the unsharded run's
// report: the same cases in the same order with the same results, every section the same, the run's exit
// code. Each shard alone holds its share; a shard missing from the merge is refused, naming it.
TEST(ConformanceCommand, ThreeShardsMergeIntoTheUnshardedRunsReport) {
    const CliRun whole = run_conformance("whole", "", "--planted");
    ASSERT_EQ(whole.code, 1) << whole.out << whole.err;
    std::vector<CliRun> shards;
    std::string folders;
    for (int k = 1; k <= 3; ++k) {
        shards.push_back(run_conformance("shard" + std::to_string(k), "",
                                         "--planted --shard " + std::to_string(k) + "/3"));
        const nlohmann::json j = nlohmann::json::parse(slurp(shards.back().dir / "report" / "report.json"));
        EXPECT_EQ(j["cases"].size(), k == 1 ? 2u : 1u) << shards.back().out;  // cases 0 and 3 in shard 1
        EXPECT_EQ(j["shard"]["positions"][0], k - 1);
        folders += " '" + (shards.back().dir / "report").string() + "'";
    }
    const fs::path merged = fs::temp_directory_path() / "evg_conformance_e2e_merged";
    fs::remove_all(merged);
    const auto merge = [&](const std::string& operands) {
        const std::string cmd = "'" EVGCHECK_BINARY "' report merge --out '" + merged.string() + "'" +
                                operands + " >'" + merged.string() + ".out' 2>&1";
        const int status = std::system(cmd.c_str());
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    };
    EXPECT_EQ(merge(folders), 1) << slurp(merged.string() + ".out");  // the planted case failed
    const nlohmann::json a = nlohmann::json::parse(slurp(whole.dir / "report" / "report.json"));
    const nlohmann::json b = nlohmann::json::parse(slurp(merged / "report.json"));
    EXPECT_EQ(evg::reports::testing::comparable_report(b).dump(1),
              evg::reports::testing::comparable_report(a).dump(1));
    EXPECT_NE(slurp(merged.string() + ".out").find("conformance: 3 passed, 1 failed"), std::string::npos)
        << slurp(merged.string() + ".out");
    EXPECT_EQ(
        merge(" '" + (shards[0].dir / "report").string() + "' '" + (shards[2].dir / "report").string() + "'"),
        2);
    EXPECT_NE(slurp(merged.string() + ".out").find("shard 2/3 of the run missing"), std::string::npos)
        << slurp(merged.string() + ".out");
    for (const CliRun& r : shards) fs::remove_all(r.dir);
    fs::remove_all(whole.dir);
    fs::remove_all(merged);
}

TEST(ConformanceCommand, BadInputExitsTwo) {
    CliRun r = run_conformance("nomatch", "", "--arch Ascend950");  // the filter names AtlasA2 cases only
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("no case matches --filter"), std::string::npos) << r.err;
    fs::remove_all(r.dir);
    r = run_conformance("badarch", "", "--arch AtlasA3");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("unknown arch 'AtlasA3'; did you mean 'AtlasA2'?"), std::string::npos) << r.err;
    fs::remove_all(r.dir);
    for (const char* shard : {"0/3", "4/3", "3", "1/0"}) {
        r = run_conformance("badshard", "", std::string("--shard ") + shard);
        EXPECT_EQ(r.code, 2) << shard;
        EXPECT_NE(r.err.find("option --shard: '" + std::string(shard) + "'"), std::string::npos) << r.err;
        fs::remove_all(r.dir);
    }
}

}  // namespace
