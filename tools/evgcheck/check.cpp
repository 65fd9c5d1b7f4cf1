// evgcheck check: the random-graph properties (props/), one property at a time in the property binary, with
// a progress bar, a number of cases, a seed and a time budget. rapidcheck shrinks a failure; the property
// prints the minimal case (text, C++, replay command), which this command passes on.
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <regex>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>

#include "args.hpp"
#include "problem_options.hpp"
#ifdef EVGCHECK_HAS_UPSTREAM_CHECK
#include "evg/hw/file_lock.hpp"
#include "upstream_check.hpp"
#endif
#include "catlass/epilogue/fusion/upstream_hazards.hpp"
#include "commands.hpp"
#include "evg/process/subprocess.hpp"
#include "evg/props/progress_line.hpp"

#ifndef EVGCHECK_PROPS_BINARY
#define EVGCHECK_PROPS_BINARY ""
#endif

namespace evgcheck {

namespace {

// Which run of `check` an option belongs to: evgcheck's own library (the properties of props/), a Catlass
// checkout (--catlass-root), or both. The one table: the help, and the refusal of an option given to the
// other run, come from it.
enum class CheckRun { both, own, catlass };
struct CheckOption {
    OptionSpec spec;
    CheckRun run;
};

// The time budget's default, for both runs (said in --time-budget's help, checked below).
constexpr double kDefaultTimeBudget = 3600;

constexpr std::array kCheckOptionTable = {
    CheckOption{{"cases", "N",
                 "random cases per property (rapidcheck max_success; default 100; with --catlass-root, "
                 "runtime cases per graph, default 30)"},
                CheckRun::both},
    CheckOption{{"seed", "S", "rapidcheck's seed (default: a fresh one, printed)"}, CheckRun::both},
    CheckOption{{"jobs", "N",
                 "worker processes per property, sharing its cases (default: the number of online cores); "
                 "the cases drawn depend on --seed and --jobs"},
                CheckRun::own},
    CheckOption{{"time-budget", "SECONDS",
                 "stop after this long in total, with what is compiling or running (default 3600)"},
                CheckRun::both},
    CheckOption{{"filter", "PATTERN",
                 "only the tests matching this gtest filter (default Props.*: the properties, not the "
                 "binary's regression replays and self-checks)"},
                CheckRun::own},
    CheckOption{{"planted", "HAZARD[,HAZARD]",
                 "switch on upstream Catlass's behaviour for a hazard in every property (docs/hazards.md): "
                 "watch a property fail, its case shrink and its replay line replay; "
                 "row_broadcast_no_barrier fails on AtlasA2 within a few hundred cases"},
                CheckRun::own},
    CheckOption{kFpOption, CheckRun::own},
    CheckOption{{"list", "", "list the properties and exit"}, CheckRun::own},
    CheckOption{{"catlass-root", "DIR",
                 "run on a Catlass checkout instead of evgcheck's copy: random graphs upstream can run, "
                 "compiled against DIR at run time, each over --cases runtime cases (default 30); a failure "
                 "shrunk over the graph too, with a reproducer program and a replay line"},
                CheckRun::catlass},
    CheckOption{
        {"graphs", "N",
         "--catlass-root: graphs (default 12, the covering size): random draws, then cover graphs for the "
         "functor x arity cells the draws leave out; their kernel configurations follow the covering "
         "schedule (docs/upstream-coverage.md)"},
        CheckRun::catlass},
    CheckOption{
        {"graph", "K",
         "--catlass-root: only graph K (from 0) of the run of --graphs N (default 12, or K + 1 when "
         "larger); random instance K of the upstream corpus built with seed S is graph K of --seed S, "
         "with the same runtime cases"},
        CheckRun::catlass},
    CheckOption{{"compile-budget", "SECONDS",
                 "--catlass-root: seconds of compiling for shrinking a failing graph (default 900)"},
                CheckRun::catlass},
    CheckOption{{"case-limit", "F",
                 "--catlass-root: a run of upstream's kernel may issue F times the instructions evgcheck's "
                 "copy issues for the same case (at least a million) before it is stopped as a kernel that "
                 "does not end (default 64)"},
                CheckRun::catlass},
    CheckOption{{"work-dir", "DIR",
                 "--catlass-root: compiled graphs and failures, reused by later runs (default "
                 "~/.cache/evgcheck/upstream)"},
                CheckRun::catlass},
    CheckOption{{"replay", "CASE_FILE", "--catlass-root: run the one case of a failure's case.txt"},
                CheckRun::catlass},
    CheckOption{
        {"shard", "K/N",
         "--catlass-root: run shard K of N of the run: its graphs whose number leaves K-1 divided by "
         "N, each with the runtime cases of the unsharded run (needs --seed: every shard draws the "
         "same run); `evgcheck report merge` makes the shards' reports the run's (docs/ci-matrix.md)"},
        CheckRun::catlass},
    CheckOption{{"report", "DIR",
                 "--catlass-root: write check-report.json and junit.xml here (default with --shard: "
                 "out/check/shard-K-of-N; without, none)"},
                CheckRun::catlass},
    CheckOption{{"known", "FILE",
                 "--catlass-root: findings to take out (default: upstream's documented ones, "
                 "docs/upstream-findings.md)"},
                CheckRun::catlass},
    CheckOption{{"binary", "PATH", "the property test binary (default: the one built beside evgcheck)"},
                CheckRun::own},
    CheckOption{{"help", "", "print this help"}, CheckRun::both},
};

constexpr auto kCheckOptions = [] {
    std::array<OptionSpec, kCheckOptionTable.size()> out{};
    for (size_t i = 0; i < out.size(); ++i) out[i] = kCheckOptionTable[i].spec;
    return out;
}();

constexpr bool help_says_default(std::string_view name, std::string_view says) {
    for (const CheckOption& o : kCheckOptionTable)
        if (o.spec.name == name) return o.spec.help.find(says) != std::string_view::npos;
    return false;
}
static_assert(help_says_default("time-budget", "(default 3600)") && kDefaultTimeBudget == 3600);
#ifdef EVGCHECK_HAS_UPSTREAM_CHECK
static_assert(help_says_default("case-limit", "(default 64)") &&
              evg::upstream::runner::kDefaultCaseLimit == 64);
#endif

// Refuses an option the run `run` does not take, naming the run it belongs to.
void refuse_options_of_the_other_run(const Args& args, CheckRun run) {
    for (const CheckOption& o : kCheckOptionTable) {
        if (o.run == CheckRun::both || o.run == run || !args.has(o.spec.name)) continue;
        if (o.run == CheckRun::catlass)
            throw UsageError(
                fmt::format("evgcheck check: option --{} needs --catlass-root DIR", o.spec.name));
        throw UsageError(fmt::format(
            "evgcheck check: option --{} is for evgcheck's own library, not with --catlass-root{}",
            o.spec.name,
            o.spec.name == "planted" ? " (plant a fault in a copy of the checkout and give the copy's folder)"
                                     : ""));
    }
}

constexpr const char* kCheckUsage =
    "Usage: evgcheck check [options]\n"
    "\n"
    "Runs the properties of props/ on random graphs, shapes, dtypes and computeLengths through the real\n"
    "library on the model: oracle equality, no violation, balanced flags, TopologicalVisitor = TreeVisitor,\n"
    "static = dynamic, invariance, metamorphic rewrites. A failing case is shrunk to a minimal graph and\n"
    "printed as text and C++, with the seed and a command that replays it. Each property's cases are split\n"
    "across --jobs worker processes with seeds derived from --seed; a failure is shrunk in its worker, and\n"
    "its replay line names that worker's seed and case count. With --planted, an upstream hazard is "
    "switched\n"
    "on in the library, so that a property fails: the output shows the failure, the shrunk graph and a\n"
    "replay line that replays it (e.g. evgcheck check --planted row_broadcast_no_barrier --cases 400).\n"
    "\n"
    "With --catlass-root DIR the property runs on the Catlass checkout in DIR (upstream's nodes and\n"
    "visitors, Ascend950): --graphs graphs that upstream Catlass can run, each with a kernel configuration\n"
    "(GM or UB kernel, block-mmad dispatch policy and parameters, A and B layouts) scheduled so that the "
    "run\n"
    "covers every cell of docs/upstream-coverage.md, are compiled against DIR in one library, and each runs\n"
    "over --cases random m, n, k, cores, schedules and data, judged against the oracle (every checker) and\n"
    "compared bit for bit with evgcheck's copy; the run prints the cells it covered and left out. A failure\n"
    "is shrunk over the runtime parameters, the kernel configuration, then the graph: smaller graphs are\n"
    "compiled in batches (cached in --work-dir) within --compile-budget, and the first that fails the same\n"
    "way is kept. The output is the minimal case, a program in upstream's dialect that builds with\n"
    "evgcheck_add_program and reproduces it, and a replay line. Plant a fault in a copy of the checkout,\n"
    "never in the checkout, to see one.\n"
    "Exit code: 0 every property passed, 1 a property failed, 2 bad options, 3 the time budget ran out\n"
    "or the property binary could not run.\n"
    "\n";

std::string props_binary(const Args& args) {
    if (const auto b = args.get("binary")) return *b;
    if (const char* env = std::getenv("EVGCHECK_PROPS_BINARY"); env != nullptr && *env != '\0') return env;
    return EVGCHECK_PROPS_BINARY;
}

// gtest --gtest_list_tests output: "Suite.\n  Test\n  Test2  # GetParam() = ...\n".
std::vector<std::string> parse_test_list(const std::string& listing) {
    std::vector<std::string> tests;
    std::istringstream in(listing);
    std::string line, suite;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        if (line[0] != ' ') {
            const size_t dot = line.find('.');
            suite = dot == std::string::npos ? std::string() : line.substr(0, dot + 1);
            continue;
        }
        if (suite.empty()) continue;
        const size_t first = line.find_first_not_of(' ');
        const size_t end = line.find_first_of(" #", first);
        tests.push_back(suite +
                        line.substr(first, end == std::string::npos ? std::string::npos : end - first));
    }
    return tests;
}

std::string bar(size_t done, size_t total) {
    constexpr size_t kWidth = 24;
    const size_t filled = total == 0 ? kWidth : done * kWidth / total;
    return fmt::format("[{}{}]", std::string(filled, '#'), std::string(kWidth - filled, '.'));
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

#ifdef EVGCHECK_HAS_UPSTREAM_CHECK
// This evgcheck by its absolute path, for the commands the upstream check prints.
std::string argv0_path() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("evgcheck") : self.string();
}

int check_upstream_command(const Args& args, std::span<const char* const> argv, const std::string& self) {
    refuse_options_of_the_other_run(args, CheckRun::catlass);
    evg::upstream::check::UpstreamCheckOptions o;
    o.root = *args.get("catlass-root");
    o.graphs =
        static_cast<int>(args.integer("graphs", 1, 10'000).value_or(evg::upstream::check::kCoveringGraphs));
    if (const auto k = args.integer("graph", 0, 100'000)) {
        if (args.has("graphs") && *k >= o.graphs)
            throw UsageError(fmt::format("evgcheck check: --graph {} is not one of the --graphs {} (0 to {})",
                                         *k, o.graphs, o.graphs - 1));
        o.only_graph = static_cast<int>(*k);
        if (!args.has("graphs")) o.graphs = std::max(o.graphs, o.only_graph + 1);
    }
    o.cases = static_cast<int>(args.integer("cases", 1, 1'000'000).value_or(30));
    if (const auto s = args.integer("seed", 0, (1LL << 62)))
        o.seed = static_cast<uint64_t>(*s);
    else
        o.seed =
            static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) % 1000000007u;
    o.compile_budget = args.seconds("compile-budget", 7 * 86400).value_or(900);
    if (const auto w = args.get("work-dir")) {
        check_output_dir(*w, "work-dir", "check");
        o.work_dir = *w;
    }
    if (const auto k = args.get("known")) {
        if (!std::filesystem::is_regular_file(*k))
            throw UsageError(fmt::format("evgcheck check: option --known: '{}' is not a file", *k));
        o.known = std::filesystem::absolute(*k).string();
    }
    o.self = self;
    o.shard = args.shard();
    if (o.shard) {
        for (const char* alone : {"graph", "replay"})
            if (args.has(alone))
                throw UsageError(fmt::format(
                    "evgcheck check: --shard shares the graphs of a run; --{} runs one case or graph alone",
                    alone));
        if (!args.has("seed"))
            throw UsageError(
                "evgcheck check: --shard needs --seed S: every shard must draw the same run (without --seed "
                "each draws its own)");
    }
    o.report_dir = args.get("report").value_or(
        o.shard ? fmt::format("out/check/shard-{}-of-{}", o.shard->index, o.shard->count) : "");
    if (!o.report_dir.empty()) {
        check_output_dir(o.report_dir, "report", "check");
        o.report_dir = std::filesystem::absolute(o.report_dir).string();
    }
    o.command = command_text("check", argv, kCheckOptions, {});
    // What may differ from shard to shard of one run: the shard, where each writes, how long it may take.
    o.run_command =
        command_text("check", argv, kCheckOptions, {"shard", "report", "work-dir", "time-budget"});
    if (const auto f = args.number("case-limit", 1, 1e9)) o.case_limit = *f;
    const double budget = args.seconds("time-budget", 7 * 86400).value_or(kDefaultTimeBudget);
    if (budget > 0)
        o.stop = std::chrono::steady_clock::now() +
                 std::chrono::milliseconds(static_cast<long long>(budget * 1000));
    evg::upstream::check::UpstreamCheck check(o);
    if (const std::string why = check.setup_error(); !why.empty()) {
        if (why.rfind("--catlass-root", 0) == 0) throw UsageError("evgcheck check: " + why);
        std::cerr << "evgcheck check: " << why << "\n";
        return kExitInternal;
    }
    try {
        if (const auto replay = args.get("replay")) return check.replay(std::cout, *replay);
        return check.run(std::cout);
    } catch (const evg::upstream::check::UpstreamCheckInputError& e) {
        throw UsageError(std::string("evgcheck check: ") + e.what());
    } catch (const evg::hw::FileLockError& e) {
        throw UsageError(fmt::format("evgcheck check: the work folder {} cannot be shared safely: {}",
                                     check.work_dir().string(), e.what()));
    } catch (const evg::upstream::check::UpstreamCheckTimeBudget&) {
        std::cout << std::flush;
        std::cerr << fmt::format(
            "evgcheck check: stopped after {:.0f} s (the time budget; raise it with --time-budget), with "
            "what "
            "was compiling or running\n",
            budget);
        return kExitInternal;
    }
}
#endif

}  // namespace

int check_command(std::span<const char* const> argv) {
    const Args args = Args::parse(argv, kCheckOptions, "check", 0);
    if (args.has("help")) {
        std::cout << kCheckUsage << options_help(kCheckOptions);
        return kExitOk;
    }
#ifdef EVGCHECK_HAS_UPSTREAM_CHECK
    if (args.has("catlass-root")) return check_upstream_command(args, argv, argv0_path());
#else
    if (args.has("catlass-root"))
        throw UsageError("evgcheck check: option --catlass-root: this evgcheck was built without upstream/");
#endif
    refuse_options_of_the_other_run(args, CheckRun::own);
    const long long cases = args.integer("cases", 1, 100'000'000).value_or(100);
    const std::optional<long long> seed_opt = args.integer("seed", 0, (1LL << 62));
    const double budget = args.seconds("time-budget", 7 * 86400).value_or(kDefaultTimeBudget);
    const int jobs = args.jobs();
    const std::string filter = args.get("filter").value_or("Props.*");
    std::string planted;  // validated names, comma-separated
    if (const auto h = args.get("planted")) {
        for (size_t start = 0; start <= h->size();) {
            const size_t comma = std::min(h->find(',', start), h->size());
            const std::string name = h->substr(start, comma - start);
            Catlass::Epilogue::Fusion::UpstreamHazards probe;
            if (!Catlass::Epilogue::Fusion::set_upstream_hazard(probe, name)) {
                std::string known;
                for (const auto& n : Catlass::Epilogue::Fusion::kUpstreamHazardNames)
                    known += (known.empty() ? "" : ", ") + std::string(n.name);
                throw UsageError(fmt::format(
                    "evgcheck check: option --planted: no upstream hazard is called '{}' (known: {})", name,
                    known));
            }
            planted += (planted.empty() ? "" : ",") + name;
            start = comma + 1;
        }
    }
    const std::string binary = props_binary(args);
    if (binary.empty()) {
        std::cerr
            << "evgcheck check: this build has no property binary (props/ was not built); give --binary "
               "PATH or set EVGCHECK_PROPS_BINARY\n";
        return kExitInternal;
    }
    std::error_code ec;
    if (!std::filesystem::is_regular_file(binary, ec) || ::access(binary.c_str(), X_OK) != 0) {
        std::cerr << "evgcheck check: the property binary '" << binary
                  << "' is not there or not executable (build it, or give --binary PATH)\n";
        return args.has("binary") ? kExitBadInput : kExitInternal;
    }
    const uint64_t seed =
        seed_opt ? static_cast<uint64_t>(*seed_opt)
                 : static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) %
                       1000000007u;

    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::milliseconds(static_cast<long long>(budget * 1000));
    const evg::process::ProcessResult listing =
        evg::process::run_process(binary, {"--gtest_list_tests", "--gtest_filter=" + filter}, {},
                                  std::min(deadline, start + std::chrono::seconds(60)));
    if (listing.exit_code != 0) {
        std::cerr << "evgcheck check: '" << binary << " --gtest_list_tests' failed:\n" << listing.output;
        return kExitInternal;
    }
    std::vector<std::string> tests = parse_test_list(listing.output);
    // The planted-fault tests of the property binary check the shrinker on a switched-on upstream hazard
    // (they pass when the property FAILS); they are not properties of the user's library, so only a
    // filter that names them runs them.
    if (filter.find("Planted") == std::string::npos)
        std::erase_if(tests, [](const std::string& t) { return t.find("Planted") != std::string::npos; });
    if (args.has("list")) {
        for (const std::string& t : tests) std::cout << t << "\n";
        return kExitOk;
    }
    if (tests.empty()) {
        std::cerr << "evgcheck check: no property matches --filter '" << filter << "'\n";
        return kExitBadInput;
    }

    const bool tty = ::isatty(2) != 0;
    std::cout << "evgcheck check: " << tests.size() << " properties, " << cases << " cases each, seed "
              << seed << ", " << jobs << (jobs == 1 ? " job" : " jobs") << ", time budget " << budget
              << " s\n"
              << std::flush;
    // rapidcheck's own parameters (for plain RC_GTEST_PROPs), and the property runner's case count and seed
    // and jobs (props/runner.hpp reads EVG_PROPS_CASE_COUNT, EVG_PROPS_SEED and EVG_PROPS_JOBS; its
    // properties print rapidcheck's "OK, passed N tests" line, which is what is counted below).
    std::map<std::string, std::string> env{
        {"RC_PARAMS", "max_success=" + std::to_string(cases) + " seed=" + std::to_string(seed)},
        {"EVG_PROPS_CASE_COUNT", std::to_string(cases)},
        {"EVG_PROPS_SEED", std::to_string(seed)},
        {"EVG_PROPS_JOBS", std::to_string(jobs)},
        {"EVG_PROPS_PROGRESS", "1"}};
    // The property binary switches the hazards on for every property (props/README.md).
    if (!planted.empty()) env["EVG_PROPS_PLANTED"] = planted;
    // The property binary applies the NaN/infinity policy to every launch (props/src/runner.cpp).
    const std::string fp = read_fp(args, "check");
    if (!fp.empty()) env["EVG_FP"] = fp;
    const std::regex passed_re(R"(OK, passed (\d+) tests)");
    // The property runner prints a progress line (evg/props/progress_line.hpp) after every passing case when
    // EVG_PROPS_PROGRESS=1: the bar moves per case, over every property's cases.
    const long long all_cases = cases * static_cast<long long>(tests.size());
    size_t done = 0;
    long long total_cases = 0;
    for (const std::string& test : tests) {
        long long current = 0;  // passing cases of this property so far
        const auto show = [&] {
            std::cerr << (tty ? "\r\033[K" : "") << bar(static_cast<size_t>(total_cases + current), all_cases)
                      << " " << total_cases + current << "/" << all_cases << " cases, " << done << "/"
                      << tests.size() << " properties: " << test << (tty ? "" : "\n") << std::flush;
        };
        show();
        const evg::process::ProcessResult r =
            evg::process::run_process(binary, {"--gtest_filter=" + test, "--gtest_color=no"}, env, deadline,
                                      [&](const std::string& line) {
                                          const auto p = evg::props::read_progress_line(line);
                                          if (!p) return;
                                          current = p->passed;
                                          if (tty)
                                              show();  // a log (not a terminal) gets one line per property
                                      });
        if (tty) std::cerr << "\r\033[K";
        if (r.timed_out) {
            std::cerr << "evgcheck check: the time budget of " << budget << " s ran out during " << test
                      << " (" << done << " of " << tests.size()
                      << " properties passed; raise --time-budget or lower "
                      << "--cases)\n";
            return kExitInternal;
        }
        if (r.exit_code != 0) {
            std::string shown;  // the property's output without the progress lines
            std::istringstream lines(r.output);
            for (std::string line; std::getline(lines, line);)
                if (!evg::props::read_progress_line(line)) shown += line + "\n";
            std::cout << "FAILED " << test << " (seed " << seed << ")\n" << shown;
            // One line a shell runs as printed, from any folder: the environment the property ran with, then
            // the binary by its absolute path.
            std::cout << fmt::format(
                "replay: {}{}RC_PARAMS='{}' EVG_PROPS_CASE_COUNT={} EVG_PROPS_SEED={} EVG_PROPS_JOBS={} {} "
                "--gtest_filter='{}'\n",
                planted.empty() ? "" : "EVG_PROPS_PLANTED=" + planted + " ",
                fp.empty() ? "" : "EVG_FP=" + fp + " ", env.at("RC_PARAMS"), env.at("EVG_PROPS_CASE_COUNT"),
                env.at("EVG_PROPS_SEED"), env.at("EVG_PROPS_JOBS"),
                std::filesystem::absolute(binary).string(), test);
            std::cout << fmt::format("evgcheck check: {} failed after {:.1f} s\n", test,
                                     seconds_since(start));
            return kExitFailed;
        }
        // Cases that passed: the runner's own count where it printed one, else rapidcheck's
        // "OK, passed N tests" lines (a plain RC_GTEST_PROP, or a runner whose progress lines this evgcheck
        // does not read: the line says the count is the fallback's, and the bar did not move).
        long long n = current;
        const bool counted_by_progress = n != 0;
        if (!counted_by_progress)
            for (auto it = std::sregex_iterator(r.output.begin(), r.output.end(), passed_re);
                 it != std::sregex_iterator(); ++it)
                n += std::stoll((*it)[1]);
        total_cases += n;
        ++done;
        std::cout << "ok   " << test << " (" << n << " cases"
                  << (counted_by_progress ? ""
                                          : "; counted from rapidcheck's summary: the property printed no "
                                            "progress lines")
                  << ")\n"
                  << std::flush;
    }
    std::cerr << bar(1, 1) << " " << total_cases << " cases, " << done << "/" << tests.size()
              << " properties\n";
    std::cout << "evgcheck check: " << done << " properties passed, " << total_cases << " cases in "
              << std::llround(seconds_since(start)) << " s (seed " << seed << ")\n";
    if (!planted.empty())
        std::cout << "evgcheck check: the planted hazard " << planted << " was not found in " << total_cases
                  << " cases (raise --cases, or --filter the properties whose graphs reach it)\n";
    return kExitOk;
}

}  // namespace evgcheck
