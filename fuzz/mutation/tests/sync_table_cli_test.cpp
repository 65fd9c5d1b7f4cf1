// End to end through the CLI: `evgcheck sync-table` on one small seed example writes its table (Markdown and
// JSON) and exits 0 when nothing disagrees; `evgcheck conformance --sync-table` puts that table into the
// conformance report; bad options exit 2 naming the option.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

struct CliRun {
    int code = -1;
    std::string out, err;
};

CliRun run(const fs::path& dir, const std::string& args) {
    fs::create_directories(dir);
    const std::string cmd = "'" EVGCHECK_BINARY "' " + args + " >'" + (dir / "stdout").string() + "' 2>'" +
                            (dir / "stderr").string() + "'";
    const int status = std::system(cmd.c_str());
    CliRun r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(dir / "stdout");
    r.err = slurp(dir / "stderr");
    return r;
}

}  // namespace

TEST(SyncTableCli, OneSmallExampleWritesTheTableAndTheConformanceReportShowsIt) {
    const fs::path dir = fs::temp_directory_path() / "evg_sync_table_cli";
    fs::remove_all(dir);
    const CliRun t = run(dir / "table",
                         "sync-table --small --graphs 0 --examples 1 --no-kernels --arch AtlasA2 "
                         "--adversarial 1 --out '" +
                             (dir / "out").string() + "'");
    ASSERT_EQ(t.code, 0) << t.out << t.err;
    EXPECT_NE(t.out.find("\nsync table: "), std::string::npos) << t.out;
    EXPECT_NE(t.out.find(" over 1 runs: "), std::string::npos) << t.out;
    EXPECT_NE(t.out.find("BlockEpilogue"), std::string::npos) << t.out;
    EXPECT_NE(t.err.find("1/1 runs"), std::string::npos) << t.err;
    const std::string md = slurp(dir / "out" / "sync_table.md");
    EXPECT_NE(md.find("# Sync mutation table"), std::string::npos) << md;
    EXPECT_NE(md.find(" 0 missed, 0 false alarms, 0 divergent"), std::string::npos) << md;

    const CliRun c =
        run(dir / "conf", "conformance --filter 'Example/AtlasA2/seed003_add/gm*' --sync-table '" +
                              (dir / "out" / "sync_table.json").string() + "' --out '" +
                              (dir / "report").string() + "'");
    ASSERT_EQ(c.code, 0) << c.out << c.err;
    const std::string report = slurp(dir / "report" / "report.md");
    EXPECT_NE(report.find("## Sync mutation table\n\n**sync table: "), std::string::npos) << report;
    EXPECT_NE(slurp(dir / "report" / "report.json").find("\"kind_differences\""), std::string::npos);
}

TEST(SyncTableCli, BadOptionsExitTwoNamingTheOption) {
    const fs::path dir = fs::temp_directory_path() / "evg_sync_table_cli_bad";
    fs::remove_all(dir);
    const CliRun a = run(dir / "a", "sync-table --arch Foo");
    EXPECT_EQ(a.code, 2);
    EXPECT_NE(a.err.find("--arch: unknown arch 'Foo'"), std::string::npos) << a.err;
    const CliRun g = run(dir / "g", "sync-table --graphs -3");
    EXPECT_EQ(g.code, 2);
    EXPECT_NE(g.err.find("--graphs"), std::string::npos) << g.err;
    fs::create_directories(dir);
    std::ofstream(dir / "bad.json") << "{\"command\": 1}";
    const CliRun j = run(dir / "j", "conformance --filter 'Example/AtlasA2/seed003_add/gm*' --sync-table '" +
                                        (dir / "bad.json").string() + "'");
    EXPECT_EQ(j.code, 2);
    EXPECT_NE(j.err.find("--sync-table"), std::string::npos) << j.err;
}
