// docs/ci-matrix.md's commands, exactly as printed (the blocks after its "<!-- recipe: NAME -->" marks), for
// N = 3 shards on one machine, each in the background as the page says, then its merge block; the merged
// reports must equal those of the same commands without --shard (compared without times and report folders).
// On the build's Catlass checkout, with GRAPHS=3, CASES=4 and FAMILIES=uf.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "comparable_report.hpp"

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The body of the first ```sh block after "<!-- recipe: NAME -->" in the page.
std::string recipe(const std::string& page, const std::string& name) {
    const std::string mark = "<!-- recipe: " + name + " -->";
    const size_t at = page.find(mark);
    if (at == std::string::npos) return {};
    const size_t open = page.find("```sh\n", at);
    const size_t close = page.find("\n```", open + 6);
    if (open == std::string::npos || close == std::string::npos) return {};
    return page.substr(open + 6, close - open - 6);
}

int bash(const fs::path& dir, const std::string& script, const fs::path& log) {
    std::ofstream(dir / "script.sh") << script;
    const std::string cmd = "cd '" + dir.string() + "' && bash script.sh >'" + log.string() + "' 2>&1";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(CiMatrixRecipe, ThreeShardsAsPrintedMergeIntoTheUnshardedRuns) {
    const std::string page = slurp(fs::path(EVG_SOURCE_DIR) / "docs" / "ci-matrix.md");
    const std::string check = recipe(page, "check-shard"), conformance = recipe(page, "conformance-shard"),
                      merge = recipe(page, "merge");
    ASSERT_FALSE(check.empty() || conformance.empty() || merge.empty())
        << "docs/ci-matrix.md lost a recipe block (check-shard, conformance-shard, merge)";
    // The unsharded runs: the same commands without the shard option, into folders the merge's globs skip.
    const std::string shard_option = " --shard \"$K/$N\"";
    ASSERT_NE(check.find(shard_option), std::string::npos) << check;
    ASSERT_NE(conformance.find(shard_option), std::string::npos) << conformance;
    const auto unsharded = [&](std::string block) {
        block.erase(block.find(shard_option), shard_option.size());
        return block;
    };
    // In the build folder, the same on every run: a compiler cache serves the libraries of a second run.
    const fs::path dir = fs::path(EVG_TEST_SCRATCH);
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string env = std::string("set -u\nexport PATH='") +
                            fs::path(EVGCHECK_BINARY).parent_path().string() + "':\"$PATH\" CATLASS_ROOT='" +
                            EVG_CATLASS_ROOT +
                            "' SEED=17 GRAPHS=3 CASES=4 FAMILIES=uf N=3\n"
                            // The work folder in the scratch folder, ccache's where it was.
                            "command -v ccache >/dev/null && export CCACHE_DIR=\"${CCACHE_DIR:-$(ccache "
                            "--get-config cache_dir)}\"\n"
                            "export XDG_CACHE_HOME='" +
                            (dir / "cache").string() + "'\n";
    // The shards, each in the background (the page's loop over K), then the merge.
    std::string script = env + "for K in 1 2 3; do\n  (\n" + check + "\n" + conformance +
                         "\n  ) >shard-$K.log 2>&1 &\ndone\nwait\n" + "K=whole\n" + unsharded(check) +
                         " >whole-check.log 2>&1\n" + unsharded(conformance) +
                         " >whole-conformance.log 2>&1\n" + merge + "\n";
    const int code = bash(dir, script, dir / "script.log");
    const std::string logs =
        slurp(dir / "script.log") + slurp(dir / "shard-1.log") + slurp(dir / "whole-check.log");
    EXPECT_EQ(code, 0) << logs;  // the merge's last command: the conformance run passes
    const fs::path reports = dir / "reports";
    for (const char* kind : {"check", "conformance"}) {
        const char* file = std::string(kind) == "check" ? "check-report.json" : "report.json";
        ASSERT_TRUE(fs::exists(reports / kind / file)) << kind << "\n" << logs;
        ASSERT_TRUE(fs::exists(reports / (std::string(kind) + "-whole") / file)) << kind << "\n" << logs;
        const nlohmann::json merged = nlohmann::json::parse(slurp(reports / kind / file));
        const nlohmann::json whole =
            nlohmann::json::parse(slurp(reports / (std::string(kind) + "-whole") / file));
        EXPECT_EQ(evg::reports::testing::comparable_report(merged).dump(1),
                  evg::reports::testing::comparable_report(whole).dump(1))
            << kind;
        for (int k = 1; k <= 3; ++k)
            EXPECT_TRUE(fs::exists(reports / (std::string(kind) + "-" + std::to_string(k)) / "junit.xml"))
                << kind << k;
    }
    const nlohmann::json check_report = nlohmann::json::parse(slurp(reports / "check" / "check-report.json"));
    EXPECT_EQ(check_report["results"].size(), 3u);
    EXPECT_EQ(check_report["exit_code"], 0);
    fs::remove_all(dir);
}

}  // namespace
