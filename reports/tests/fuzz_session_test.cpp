// The fuzz session's report (evgcheck fuzz): report.json holds every number and finding of the session,
// report.md says so in a table, escapes a signature's '|' so that the table keeps its columns, says when
// there is no finding, and lists the pattern coverage and the workers that failed.
#include "evg/reports/fuzz_session.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

using namespace evg::reports;

namespace {

FuzzSession sample_session() {
    FuzzSession s;
    s.target = "sync_program";
    s.fuzzer = "build/fuzz/fuzz/fuzz_sync_program";
    s.seconds = 20;
    s.jobs = 2;
    s.execs = 5000;
    s.coverage = 812;
    s.features = 2301;
    s.corpus = 97;
    s.corpus_dir = "fuzz-out/sync_program/corpus";
    s.findings.push_back({.signature = "explorer: race | checkers: none",
                          .hash = "0123456789abcdef",
                          .count = 3,
                          .first_seen_s = 4.5,
                          .input = "fuzz-out/sync_program/findings/0123456789abcdef/input",
                          .input_bytes = 41,
                          .minimised = true,
                          .replay = "/abs/fuzz_sync_program_replay /abs/input"});
    s.patterns.push_back({.pattern = "double-buffer MTE2->V", .inputs = 12, .disagreements = 1});
    s.patterns.push_back({.pattern = "ping-pong MTE3->MTE2", .inputs = 30, .disagreements = 0});
    s.worker_errors.push_back("worker 1: the fuzz binary ended with status 139 and no finding");
    return s;
}

size_t occurrences(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST(FuzzSessionReport, JsonHoldsTheSessionsNumbersAndEveryFinding) {
    const nlohmann::json j = nlohmann::json::parse(fuzz_session_json(sample_session()));
    EXPECT_EQ(j["target"], "sync_program");
    EXPECT_EQ(j["jobs"], 2);
    EXPECT_EQ(j["execs"], 5000);
    EXPECT_DOUBLE_EQ(j["exec_per_s"].get<double>(), 250.0);  // 5000 executions in 20 s
    EXPECT_EQ(j["coverage"], 812);
    EXPECT_EQ(j["features"], 2301);
    EXPECT_EQ(j["corpus"], 97);
    EXPECT_EQ(j["corpus_dir"], "fuzz-out/sync_program/corpus");
    ASSERT_EQ(j["findings"].size(), 1u);
    const auto& f = j["findings"][0];
    EXPECT_EQ(f["signature"], "explorer: race | checkers: none");  // unescaped: JSON needs no escape for '|'
    EXPECT_EQ(f["hash"], "0123456789abcdef");
    EXPECT_EQ(f["count"], 3);
    EXPECT_DOUBLE_EQ(f["first_seen_s"].get<double>(), 4.5);
    EXPECT_EQ(f["input_bytes"], 41);
    EXPECT_EQ(f["minimised"], true);
    EXPECT_EQ(f["replay"], "/abs/fuzz_sync_program_replay /abs/input");
    ASSERT_EQ(j["patterns"].size(), 2u);
    EXPECT_EQ(j["patterns"][0]["pattern"], "double-buffer MTE2->V");
    EXPECT_EQ(j["patterns"][0]["disagreements"], 1);
    ASSERT_EQ(j["worker_errors"].size(), 1u);
}

TEST(FuzzSessionReport, MarkdownTableKeepsItsColumnsWhenASignatureHasABar) {
    const std::string md = fuzz_session_markdown(sample_session());
    EXPECT_EQ(md.rfind("# Fuzz session: sync_program\n", 0), 0u) << md;
    EXPECT_NE(md.find("20 s, 2 job(s), 5000 executions (250 exec/s), coverage 812 edges, 2301 features, "
                      "corpus 97 inputs (fuzz-out/sync_program/corpus)."),
              std::string::npos)
        << md;
    const std::string row =
        "| `0123456789abcdef` | explorer: race \\| checkers: none | 3 | 41 | "
        "`/abs/fuzz_sync_program_replay /abs/input` |";
    EXPECT_NE(md.find(row), std::string::npos) << md;
    // Every line of the findings table has the header's six bars (an escaped bar is not a column).
    const size_t line_start = md.find(row);
    const std::string line = md.substr(line_start, md.find('\n', line_start) - line_start);
    EXPECT_EQ(occurrences(line, "|") - occurrences(line, "\\|"), 6u) << line;
    EXPECT_EQ(md.find("No finding."), std::string::npos);
}

TEST(FuzzSessionReport, MarkdownListsPatternsAndWorkerErrorsAndSaysWhenNothingWasFound) {
    FuzzSession s = sample_session();
    const std::string md = fuzz_session_markdown(s);
    EXPECT_NE(md.find("## Pattern coverage"), std::string::npos);
    EXPECT_NE(md.find("2 sync patterns reached by the corpus"), std::string::npos) << md;
    EXPECT_NE(md.find("| double-buffer MTE2->V | 12 | 1 |"), std::string::npos) << md;
    EXPECT_NE(md.find("| ping-pong MTE3->MTE2 | 30 | 0 |"), std::string::npos) << md;
    EXPECT_NE(md.find("Worker error: worker 1: the fuzz binary ended with status 139"), std::string::npos);

    s.findings.clear();
    s.patterns.clear();
    s.worker_errors.clear();
    const std::string quiet = fuzz_session_markdown(s);
    EXPECT_NE(quiet.find("No finding.\n"), std::string::npos) << quiet;
    EXPECT_EQ(quiet.find("| finding |"), std::string::npos);
    EXPECT_EQ(quiet.find("Pattern coverage"), std::string::npos);
    EXPECT_EQ(quiet.find("Worker error"), std::string::npos);
    EXPECT_EQ(nlohmann::json::parse(fuzz_session_json(s))["findings"].size(), 0u);
}

TEST(FuzzSessionReport, ASessionThatRanNoTimeHasNoRate) {
    FuzzSession s;
    s.target = "graph_text";
    EXPECT_DOUBLE_EQ(nlohmann::json::parse(fuzz_session_json(s))["exec_per_s"].get<double>(), 0.0);
    EXPECT_NE(fuzz_session_markdown(s).find("0 executions (0 exec/s)"), std::string::npos);
}
