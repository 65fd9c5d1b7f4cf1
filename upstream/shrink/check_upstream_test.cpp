// `evgcheck check --catlass-root DIR` as a user runs it (label `upstream`): random graphs compiled against a
// checkout at run time. On a copy of the checkout in the build folder whose Add functor subtracts (never the
// checkout, never the repository: upstream/CMakeLists.txt makes it), the check must fail, shrink the graph
// across the compile boundary to a handful of nodes that still hold the Add, print a replay line that
// replays as printed, and write a program in upstream's dialect that builds with evgcheck_add_program and
// shows the wrong numbers under `evgcheck run-program`. The same case passes on the checkout itself.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Result {
    int code = -1;
    std::string out;
};

// In the build folder, named by the test (ctest runs each in a process of its own), emptied first: the same
// paths on every run, so that a compiler cache serves the libraries a second run compiles (their compile
// commands name their folders).
fs::path scratch() {
    static const fs::path dir = [] {
        const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
        fs::path d = fs::path(EVG_TEST_SCRATCH) /
                     (test == nullptr ? "process-" + std::to_string(::getpid()) : std::string(test->name()));
        fs::remove_all(d);
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

// The scratch folder (compiled candidates, programs) goes when the tests end.
class RemoveScratch : public ::testing::Environment {
  public:
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(scratch(), ec);
    }
};
const auto* const kRemoveScratch = ::testing::AddGlobalTestEnvironment(new RemoveScratch);

// A command line through the shell, as a user pastes it; stdout and stderr together.
Result shell(const std::string& line) {
    Result r;
    FILE* p = ::popen((line + " 2>&1").c_str(), "r");
    if (p == nullptr) return r;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    const int status = ::pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

Result evgcheck(const std::string& args) {
    return shell(std::string(EVGCHECK_BINARY) + " " + args);
}

// The rest of the line after `prefix` (which starts a line), or "".
std::string line_after(const std::string& text, const std::string& prefix) {
    std::smatch m;
    if (!std::regex_search(text, m, std::regex("(^|\n)" + prefix + "([^\n]*)"))) return {};
    return m[2].str();
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(EvgcheckCheckUpstream, PlantedFaultIsFoundShrunkAcrossTheCompileBoundaryAndReplays) {
    ASSERT_TRUE(EVG_PLANTED_APPLIED) << "the planted copy's Add was not found: upstream/CMakeLists.txt";
    const std::string work = (scratch() / "work").string();
    const Result r = evgcheck(std::string("check --catlass-root ") + EVG_PLANTED_ROOT +
                              " --graphs 8 --cases 10 --seed 5 --compile-budget 900 --work-dir " + work);
    ASSERT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.out.find("FAILED graph "), std::string::npos) << r.out;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(
        r.out, m, std::regex(R"(minimal failing case \((\d+) nodes; (\d+) graph shrink steps)")))
        << r.out;
    const int nodes = std::stoi(m[1].str()), steps = std::stoi(m[2].str());
    // AccLoad, what the Add reads besides, the Add and the store: a few nodes, reached by shrinking.
    EXPECT_LE(nodes, 4) << r.out;
    const std::string failure = line_after(r.out, "failure ");
    EXPECT_NE(failure.find("output"), std::string::npos) << r.out;
    const fs::path case_file = line_after(r.out, "files: ").substr(0, line_after(r.out, "files: ").find(' '));
    const std::string case_text = slurp(case_file);
    EXPECT_NE(case_text.find("Compute Add"), std::string::npos) << case_text;
    std::printf("shrunk in %d steps to:\n%s\n", steps, case_text.c_str());

    // The replay line replays as printed: the same failure.
    const std::string replay = line_after(r.out, "replay: ");
    ASSERT_FALSE(replay.empty()) << r.out;
    const Result again = shell(replay);
    EXPECT_EQ(again.code, 1) << replay << "\n" << again.out;
    EXPECT_NE(again.out.find("failure " + failure.substr(0, failure.find(']') + 1)), std::string::npos)
        << failure << "\n"
        << again.out;

    // The same case on the checkout itself passes: the failure is the planted fault's.
    const Result clean = evgcheck(std::string("check --catlass-root ") + EVG_CATLASS_ROOT + " --replay " +
                                  case_file.string() + " --work-dir " + work);
    EXPECT_EQ(clean.code, 0) << clean.out;

    // The program builds with evgcheck_add_program as printed, and shows the wrong numbers when run checked.
    const std::string build = line_after(r.out, "build the program: ");
    ASSERT_FALSE(build.empty()) << r.out;
    const Result built = shell(build);
    ASSERT_EQ(built.code, 0) << build << "\n" << built.out;
    const std::string run = line_after(r.out, "run it: +");
    ASSERT_FALSE(run.empty()) << r.out;
    const Result ran = shell(run);
    EXPECT_EQ(ran.code, 1) << run << "\n" << ran.out;
    EXPECT_NE(ran.out.find("Compare failed: output D"), std::string::npos) << ran.out;
}

// The checkout itself passes a few graphs, and the same work folder serves a second run from its cache.
TEST(EvgcheckCheckUpstream, CheckoutPassesAndASecondRunComesFromTheCache) {
    const std::string work = (scratch() / "clean").string();
    const std::string args = std::string("check --catlass-root ") + EVG_CATLASS_ROOT +
                             " --graphs 3 --cases 5 --seed 11 --work-dir " + work;
    const Result r = evgcheck(args);
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("3 graphs x 5 runtime cases passed"), std::string::npos) << r.out;
    // The compiler that built the candidates' kernel code, as the library measured it (the build's default).
    EXPECT_NE(r.out.find(std::string("kernel compiler: ") + EVG_KERNEL_COMPILER_NAME + " "),
              std::string::npos)
        << r.out;
    const Result again = evgcheck(args);
    ASSERT_EQ(again.code, 0) << again.out;
    EXPECT_NE(again.out.find("(cached)"), std::string::npos) << again.out;
    // Cached means not compiled again: the library file is the first run's (its source was not rewritten,
    // which made the build tool compile it anew on every run).
    fs::path first_library;
    for (const fs::directory_entry& e : fs::directory_iterator(work))
        if (e.path().filename().string().rfind("lib-", 0) == 0)
            first_library = e.path() / "build" / "libinstances.so";
    ASSERT_TRUE(fs::exists(first_library)) << work;
    const fs::file_time_type built = fs::last_write_time(first_library);
    const Result third = evgcheck(args);
    ASSERT_EQ(third.code, 0) << third.out;
    EXPECT_EQ(fs::last_write_time(first_library), built) << "a cached library was compiled again\n"
                                                         << third.out;
    // A cached library of another build's headers (here: the fixture with another ABI stamp put in its place,
    // newer than its sources, so the build tool leaves it) is refused by the runner, built again and run.
    fs::path cached;
    for (const fs::directory_entry& e : fs::directory_iterator(work))
        if (e.path().filename().string().rfind("lib-", 0) == 0)
            cached = e.path() / "build" / "libinstances.so";
    ASSERT_TRUE(fs::exists(cached)) << work;
    fs::copy_file(EVG_FIXTURE_OTHER_STAMP, cached, fs::copy_options::overwrite_existing);
    const Result stale = evgcheck(args);
    ASSERT_EQ(stale.code, 0) << stale.out;
    EXPECT_NE(stale.out.find("3 graphs x 5 runtime cases passed"), std::string::npos) << stale.out;
    EXPECT_NE(fs::file_size(cached), fs::file_size(EVG_FIXTURE_OTHER_STAMP)) << "the stale library was kept";
    // Another evgcheck build sharing the work folder (here: a copy of the package whose files differ, as a
    // sanitizer build's do) compiles its own library and never loads this build's.
    const fs::path other = scratch() / "other-package";
    fs::create_directories(other);
    for (const fs::directory_entry& e : fs::directory_iterator(EVGCHECK_PACKAGE_DIR))
        fs::copy_file(e.path(), other / e.path().filename(), fs::copy_options::overwrite_existing);
    std::ofstream(other / "evgcheckConfig.cmake", std::ios::app) << "# another build\n";
    const Result theirs =
        shell("EVGCHECK_PACKAGE_DIR=" + other.string() + " " + EVGCHECK_BINARY + " " + args);
    ASSERT_EQ(theirs.code, 0) << theirs.out;
    EXPECT_EQ(theirs.out.find("(cached)"), std::string::npos) << theirs.out;
    int libraries = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(work))
        libraries += e.path().filename().string().rfind("lib-", 0) == 0;
    EXPECT_EQ(libraries, 2);
}

// A kernel that never ends (a copy of the checkout whose tile loop runs to `r <= rows`, made in the build
// folder) fails its case at the per-case instruction limit, saying where each core was, and shrinks and
// replays like any failure.
TEST(EvgcheckCheckUpstream, AKernelThatNeverEndsFailsItsCaseAndShrinks) {
    ASSERT_TRUE(EVG_HANG_APPLIED) << "the tile loop to plant the hang in was not found in "
                                  << EVG_CATLASS_ROOT;
    const std::string work = (scratch() / "hang").string();
    const Result r = evgcheck(std::string("check --catlass-root ") + EVG_HANG_ROOT +
                              " --graphs 1 --cases 3 --seed 1 --compile-budget 300 --work-dir " + work);
    ASSERT_EQ(r.code, 1) << r.out;
    EXPECT_NE(
        r.out.find("kernel_exception: the kernel issued more than 1000000 instructions (a loop that does "
                   "not end?)"),
        std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("Where each core was: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("block_epilogue_visitor.hpp:"), std::string::npos) << r.out;
    // The graph shrank: seed 1's graph 0 has 5 nodes (a small graph: each shrink step is a compile), and
    // every graph hangs, so the shrink ends at the smallest, AccLoad and its store.
    EXPECT_NE(r.out.find(", 5 nodes)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  step 1: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("minimal failing case (2 nodes;"), std::string::npos) << r.out;
    // A step of runtime parameters only (the data made exact) runs on the library of the step before: fewer
    // libraries compiled than steps taken.
    std::smatch m;
    ASSERT_TRUE(std::regex_search(
        r.out, m, std::regex(R"((\d+) graph shrink steps, \d+ candidates run, compiled in (\d+) librar)")))
        << r.out;
    EXPECT_LT(std::stoi(m[2].str()), std::stoi(m[1].str())) << r.out;
    const std::string replay = line_after(r.out, "replay: ");
    ASSERT_FALSE(replay.empty()) << r.out;
    const Result again = shell(replay);
    EXPECT_EQ(again.code, 1) << replay << "\n" << again.out;
    EXPECT_NE(again.out.find("(a loop that does not end?)"), std::string::npos) << again.out;
}

// docs/upstream-findings.md §4's smallest case, a store of the C tile, meets upstream's known store-of-a-load
// race: with the known-findings file the race is excused (and said so) and the case passes, its output's
// values decided by the race and not judged; with an empty one the WAR race is reported.
TEST(EvgcheckCheckUpstream, ReplayOfAKnownRaceCaseReportsTheRace) {
    const fs::path case_file = scratch() / "finding4.txt";
    std::ofstream(case_file) << "# case data=exact data_seed=0 cores=1 sched=0\n"
                                "problem arch=Ascend950 m=33 n=65 k=1 a=half b=half c=float cl=2048 path=gm "
                                "tile=32x64x64\n"
                                "output D : float[33, 65]\n"
                                "%0 = AccLoad float\n"
                                "%1 = AuxStore float D (%0)\n";
    const std::string replay = std::string("check --catlass-root ") + EVG_CATLASS_ROOT + " --replay " +
                               case_file.string() + " --work-dir " + (scratch() / "finding4").string();
    const Result excused = evgcheck(replay);
    EXPECT_EQ(excused.code, 0) << excused.out;
    EXPECT_NE(excused.out.find("a known finding excused (the known-findings file, --known): [drawn, "
                               "stores-a-load] race copy_ub_to_gm_tla.hpp: AscendC::DataCopyPad( <-> "
                               "copy_gm_to_ub_tla.hpp: AscendC::DataCopyPad(  # 4"),
              std::string::npos)
        << excused.out;
    // The pass says what it did not check: D's values, which the race decides.
    EXPECT_NE(
        excused.out.find("values not compared with the oracle (upstream's store-of-a-load race, excused, "
                         "decides them): D in 1 of them"),
        std::string::npos)
        << excused.out;
    const fs::path none = scratch() / "no_known_findings.txt";
    std::ofstream(none) << "# none\n";
    const Result r = evgcheck(replay + " --known " + none.string());
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.out.find("WAR race on UB[AIV 0]"), std::string::npos) << r.out;
}

// Bad input is refused naming the option and the rule; the time budget ends the command.
TEST(EvgcheckCheckUpstream, BadInputIsRefusedNamingTheRule) {
    Result r = evgcheck("check --catlass-root /nowhere");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("'/nowhere' is not a Catlass checkout"), std::string::npos) << r.out;
    r = evgcheck(std::string("check --catlass-root ") + EVG_CATLASS_ROOT +
                 " --planted row_broadcast_no_barrier");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("plant a fault in a copy of the checkout"), std::string::npos) << r.out;
    r = evgcheck(std::string("check --catlass-root ") + EVG_CATLASS_ROOT + " --replay /nowhere.txt");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("--replay: '/nowhere.txt' is not a file"), std::string::npos) << r.out;
    // The time budget stops the command, and what it was compiling with it.
    r = evgcheck(std::string("check --catlass-root ") + EVG_CATLASS_ROOT +
                 " --graphs 4 --seed 77 --work-dir " + (scratch() / "budget").string() + " --time-budget 1");
    EXPECT_EQ(r.code, 3) << r.out;
    EXPECT_NE(r.out.find("stopped after 1 s (the time budget"), std::string::npos) << r.out;
    const fs::path garbage = scratch() / "garbage.txt";
    std::ofstream(garbage) << "garbage\n";
    r = evgcheck(std::string("check --catlass-root ") + EVG_CATLASS_ROOT + " --replay " + garbage.string());
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("--replay: " + garbage.string() + ":1:1: expected"), std::string::npos) << r.out;
    r = evgcheck("check --graphs 3");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("option --graphs needs --catlass-root DIR"), std::string::npos) << r.out;
    // A shard: of a run every shard draws alike (--seed), never of one graph or case, K of N.
    const std::string root = std::string("check --catlass-root ") + EVG_CATLASS_ROOT;
    const std::pair<std::string, std::string> shard_refusals[] = {
        {" --shard 2/3", "--shard needs --seed S"},
        {" --shard 2/3 --seed 1 --graph 1", "--graph runs one case or graph alone"},
        {" --shard 4/3 --seed 1", "option --shard: '4/3': K must be from 1 to N (3)"},
        {" --shard two --seed 1", "option --shard: 'two' is not K/N"},
    };
    for (const auto& [options, says] : shard_refusals) {
        r = evgcheck(root + options);
        EXPECT_EQ(r.code, 2) << options << "\n" << r.out;
        EXPECT_NE(r.out.find(says), std::string::npos) << options << "\n" << r.out;
    }
    r = evgcheck("check --shard 1/2");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("option --shard needs --catlass-root DIR"), std::string::npos) << r.out;
    // A shard the time budget stops writes the report of what it ran: nothing, its graphs not run.
    const fs::path report = scratch() / "budget-report";
    r = evgcheck(root + " --graphs 4 --seed 77 --work-dir " + (scratch() / "budget").string() +
                 " --time-budget 1 --shard 1/2 --report " + report.string());
    EXPECT_EQ(r.code, 3) << r.out;
    const std::string json = slurp(report / "check-report.json");
    EXPECT_NE(json.find("\"stopped\": \"the time budget ran out\""), std::string::npos) << json;
    EXPECT_NE(json.find("\"numbers\": [\n    0,\n    2\n  ]"), std::string::npos) << json;
    EXPECT_NE(slurp(report / "junit.xml").find("tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"2\""),
              std::string::npos)
        << slurp(report / "junit.xml");
}

// The processes working in `dir` (their working folder in it): what a check compiling there started.
std::vector<std::string> processes_in(const fs::path& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator("/proc", ec)) {
        std::string pid = e.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
        const fs::path cwd = fs::read_symlink(e.path() / "cwd", ec);
        if (ec || cwd.string().rfind(dir.string(), 0) != 0) continue;
        std::string comm = slurp(e.path() / "comm");
        if (!comm.empty() && comm.back() == '\n') comm.pop_back();
        out.push_back(pid.append(" ").append(comm));
    }
    return out;
}

// Stopped while it compiles, by a stop signal (Ctrl-C, SIGTERM) or killed outright, a check leaves no
// process behind: the build it started (cmake, ninja, the compilers) ends with it.
TEST(EvgcheckCheckUpstream, ACheckStoppedMidCompileLeavesNoProcessBehind) {
    for (const int sig : {SIGTERM, SIGINT, SIGKILL}) {
        // A folder of this process's: a library that is never finished is never cached either.
        const fs::path work =
            scratch() / ("stopped-" + std::to_string(sig) + "-" + std::to_string(::getpid()));
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            const int null = ::open("/dev/null", O_WRONLY);
            ::dup2(null, 1);
            ::dup2(null, 2);
            ::execl(EVGCHECK_BINARY, EVGCHECK_BINARY, "check", "--catlass-root", EVG_CATLASS_ROOT, "--graphs",
                    "8", "--seed", "9", "--work-dir", work.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        // Mid-compile: the library's build configured (its build.ninja written) and a compiler running in its
        // folder (not only configure's compiler checks).
        const auto configured = [&work] {
            std::error_code ec;
            for (const fs::directory_entry& e : fs::directory_iterator(work, ec))
                if (fs::exists(e.path() / "build" / "build.ninja")) return true;
            return false;
        };
        bool compiling = false;
        for (int i = 0; i < 1200 && !compiling; ++i) {
            ::usleep(100'000);
            if (!configured()) continue;
            for (const std::string& p : processes_in(work))
                compiling |= p.find("clang") != std::string::npos || p.find("g++") != std::string::npos ||
                             p.find("cc1plus") != std::string::npos;
        }
        ASSERT_TRUE(compiling) << "signal " << sig << ": no compiler ever ran in " << work;
        ::kill(pid, sig);
        int status = 0;
        ASSERT_EQ(::waitpid(pid, &status, 0), pid);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig)
            << "signal " << sig << ": status " << status;
        std::vector<std::string> left;
        // ninja stops its compilers as it ends (a second or two; a few more when killed outright, through
        // PR_SET_PDEATHSIG): 10 s, well under what the library's compile would take to end by itself.
        for (int i = 0; i < 100; ++i) {
            left = processes_in(work);
            if (left.empty()) break;
            ::usleep(100'000);
        }
        std::string names;
        for (const std::string& p : left) names += " " + p;
        EXPECT_TRUE(left.empty()) << "signal " << sig << ": still running:" << names;
        EXPECT_TRUE(fs::exists(work)) << work;
    }
}

}  // namespace
