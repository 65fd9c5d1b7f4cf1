// evgcheck conformance: runs the conformance catalogue (conformance/: every node kind, composition, the seed
// examples, the static TreeVisitor / TopologicalVisitor compositions, negative conformance, upstream hazards,
// and the controls that prove every checker and judge rule alive) on the model and writes the report
// (reports/): HTML, Markdown, JSON and JUnit in --out, the matrix as text, the "checkers proven alive" line
// and a summary line last. Exit 0 when every case passed or was not applicable and every finding of the
// controls' tables was proven on every chip, 1 when a case failed or (a whole run) a finding was not proven,
// 2 for bad options (or a filter that matches nothing).
#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>

#include "args.hpp"
#include "commands.hpp"
#include "evg/process/subprocess.hpp"
#include "load.hpp"
#include "problem_options.hpp"

#ifdef EVGCHECK_HAS_CONFORMANCE
#include "evg/conformance/case.hpp"
#include "evg/conformance/model_case.hpp"
#include "evg/hw/checker.hpp"
#include "evg/hw/error.hpp"
#include "evg/reports/report.hpp"
#ifdef EVGCHECK_HAS_HAND_FUSED
#include "report_row.hpp"
#endif
#ifdef EVGCHECK_HAS_UPSTREAM
#include "upstream_conformance.hpp"
#endif
#endif

#ifndef EVGCHECK_PROPS_BINARY
#define EVGCHECK_PROPS_BINARY ""
#endif

namespace evgcheck {

#ifdef EVGCHECK_HAS_CONFORMANCE
namespace conformance = evg::conformance;
namespace reports = evg::reports;
#endif

namespace {

constexpr std::array kConformanceOptions = {
    OptionSpec{"out", "DIR",
               "write report.html, report.md, report.json and junit.xml here (default out/conformance)"},
    OptionSpec{"filter", "GLOB", "only the cases whose id matches ('*' any run, '?' one character)"},
    OptionSpec{"arch", "NAME[,NAME]", "only these archs (AtlasA2, Ascend950; default both)"},
    OptionSpec{"list", "", "print the ids of the matching cases and exit"},
    OptionSpec{"planted", "",
               "add the planted failing case (also EVGCHECK_CONFORMANCE_PLANTED=1): a report test"},
    OptionSpec{"props", "", "also run the property suite's coverage shard and include its distribution"},
    OptionSpec{"props-log", "FILE",
               "include the coverage distribution printed in FILE (a saved property run)"},
    OptionSpec{"sync-table", "FILE",
               "add the SYNC mutation table that `evgcheck sync-table` wrote (its sync_table.json)"},
    OptionSpec{
        "hand-fused", "yes|no",
        "run the seed examples against their hand-fused epilogues on the cycle model and add the table "
        "(default: yes for the whole catalogue, no with --filter)"},
    OptionSpec{"jobs", "N",
               "run N cases at once on N threads (default: the number of online cores); the report is the "
               "same for every N"},
    OptionSpec{
        "catlass-root", "DIR",
        "also run the node suite on upstream Catlass's own nodes from this checkout, side by side with "
        "evgcheck's, under each block-mmad configuration family (any checkout: its cells are compiled "
        "at run time as `evgcheck check --catlass-root` compiles, cached in the work folder; the one "
        "this evgcheck was built against has its default family's cells compiled in)"},
    OptionSpec{"families", "all|ID[,ID]",
               "with --catlass-root: the block-mmad configuration families to run, by id (an id that is "
               "none is refused naming them; default all)"},
    OptionSpec{"work-dir", "DIR",
               "with --catlass-root: where the run-time libraries are cached (default "
               "~/.cache/evgcheck/upstream, shared with `evgcheck check --catlass-root`)"},
    OptionSpec{"time-budget", "SECONDS", "stop after this long in total (default 1800)"},
    OptionSpec{
        "shard", "K/N",
        "run shard K of N: the selected cases whose place in the run's order leaves K-1 divided by N; "
        "the property coverage, the hand-fused table and the sync table go with shard 1. `evgcheck report "
        "merge` makes the N shards' reports the report of the whole run (docs/ci-matrix.md)"},
    OptionSpec{
        "check", "NAME[,NAME]",
        "also run these opt-in checkers in every case (docs/checkers.md): a finding of theirs fails each "
        "case that does not expect it, which is how an opt-in checker is shown quiet over the catalogue"},
    kFpOption,
    OptionSpec{"verbose", "", "print every case as it finishes (default: failures and a progress line)"},
    OptionSpec{"help", "", "print this help"},
};

constexpr const char* kConformanceUsage =
    "Usage: evgcheck conformance [options]\n"
    "\n"
    "Runs the conformance catalogue on the model: each of the 11 node kinds across dtypes, archs, workspace\n"
    "paths, tails, computeLengths and strides; TreeVisitor and TopologicalVisitor compositions (also static\n"
    "ones through the library's own visitors); the seed examples; invalid graphs that must be rejected with\n"
    "their documented message; upstream's hazards, each of which the matching checker must catch; and the\n"
    "controls: for every kind of finding of the checkers (a race per direction and place) and of the judge,\n"
    "on each chip, a fault that must give exactly that finding and its fix that must run clean (the "
    "report's\n"
    "\"checkers proven alive\"). Every case has a stable id that replays it alone with\n"
    "--filter '<id>'. Writes the report as HTML, Markdown, JSON and JUnit XML, prints the matrix node kind "
    "x\n"
    "dtype x arch and a summary line. The cases are independent: --jobs N runs N at once, and the report,\n"
    "the progress lines and the exit code are those of --jobs 1, in catalogue order.\n"
    "Exit code: 0 nothing failed, 1 a case failed or (whole catalogue) a finding was not proven alive, 2 "
    "bad\n"
    "options or no matching case, 3 the time budget ran\n"
    "out (the cases that ran are reported, and the report says PARTIAL).\n"
    "\n";

#ifdef EVGCHECK_HAS_CONFORMANCE

// The seed examples of `archs` against their hand-fused epilogues (conformance/examples/hand_fused), one row
// each, in the comparison's own order.
std::vector<reports::HandFusedRow> run_hand_fused(const std::vector<std::string>& archs) {
    std::vector<reports::HandFusedRow> rows;
#ifdef EVGCHECK_HAS_HAND_FUSED
    for (const evg::hand_fused::CaseSpec& spec : evg::hand_fused::all_cases()) {
        const bool wanted = std::any_of(archs.begin(), archs.end(), [&](const std::string& a) {
            return spec.config.starts_with(a + "_");
        });
        if (!wanted) continue;
        rows.push_back(evg::hand_fused::report_row(spec.run()));
    }
#else
    (void)archs;
#endif
    return rows;
}

std::vector<std::string> split_archs(const std::string& list) {
    std::vector<std::string> out;
    std::stringstream in(list);
    std::string a;
    while (std::getline(in, a, ',')) {
        if (a.empty()) continue;
        const std::optional<std::string> arch = match_choice(a, kArchNames);
        if (!arch) {
            std::string msg = fmt::format("evgcheck conformance: --arch: unknown arch '{}'", a);
            if (const std::string near = closest(a, kArchNames); !near.empty())
                msg += "; did you mean '" + near + "'?";
            throw UsageError(msg + " (archs: AtlasA2, Ascend950)");
        }
        out.push_back(*arch);
    }
    if (out.empty())
        throw UsageError("evgcheck conformance: --arch needs at least one arch (AtlasA2, Ascend950)");
    return out;
}

reports::PropsCoverage run_props(std::chrono::steady_clock::time_point deadline) {
    const char* env = std::getenv("EVGCHECK_PROPS_BINARY");
    const std::string binary = env != nullptr && *env != '\0' ? env : EVGCHECK_PROPS_BINARY;
    if (binary.empty() || ::access(binary.c_str(), X_OK) != 0) {
        std::cerr << "evgcheck conformance: --props: the property binary is not built; the report says \"not "
                     "run\"\n";
        return {};
    }
    const std::string test = "Props.ModelMatchesOracleAndCheckersAreClean";
    std::cerr << "evgcheck conformance: running the property suite's coverage shard (" << test << ")\n";
    const evg::process::ProcessResult r =
        evg::process::run_process(binary, {"--gtest_filter=" + test}, {{"EVG_PROPS_NO_SAVE", "1"}}, deadline);
    reports::PropsCoverage p =
        reports::parse_props_coverage(r.output, "evg_props_model_tests --gtest_filter=" + test);
    if (r.exit_code != 0)
        std::cerr << "evgcheck conformance: the property shard failed (exit " << r.exit_code
                  << "); run `evgcheck check` for its counterexample\n";
    return p;
}

#endif

}  // namespace

int conformance_command(std::span<const char* const> argv) {
    const Args args = Args::parse(argv, kConformanceOptions, "conformance", 0);
    if (args.has("help")) {
        std::cout << kConformanceUsage << options_help(kConformanceOptions);
        return kExitOk;
    }
#ifndef EVGCHECK_HAS_CONFORMANCE
    std::cerr
        << "evgcheck conformance: this build has no conformance catalogue (conformance/ or reports/ was not "
           "built)\n";
    return kExitInternal;
#else
    const auto start = std::chrono::steady_clock::now();
    if (const std::optional<std::string> checks = args.get("check")) {
        try {
            evg::hw::enable_process_checks(*checks);
        } catch (const evg::Error& e) {
            std::cerr << "evgcheck conformance: option --check: " << e.what() << "\n";
            return kExitBadInput;
        }
        std::cout << "opt-in checkers in every case: " << *checks << "\n";
    }
    try {
        if (const std::string fp = read_fp(args, "conformance"); !fp.empty())
            std::cout << "NaN/infinity policy in every case: " << fp << "\n";
    } catch (const UsageError& e) {
        std::cerr << e.what() << "\n";
        return kExitBadInput;
    }
    const std::optional<evg::Shard> shard = args.shard();
    // A shard's own folder by default, so that the shards of a run on one machine keep their reports apart.
    const std::filesystem::path out_dir = args.get("out").value_or(
        shard ? fmt::format("out/conformance/shard-{}-of-{}", shard->index, shard->count)
              : "out/conformance");
    const std::string filter = args.get("filter").value_or("");
    const std::vector<std::string> archs = split_archs(args.get("arch").value_or("AtlasA2,Ascend950"));
    constexpr std::string_view kYesNo[] = {"yes", "no"};
    const std::string hand_fused_arg =
        args.choice("hand-fused", kYesNo).value_or(filter.empty() ? "yes" : "no");
    bool hand_fused = hand_fused_arg == "yes";
#ifndef EVGCHECK_HAS_HAND_FUSED
    hand_fused = false;
#endif
    const double budget = args.seconds("time-budget", 7 * 86400).value_or(1800);
    const int jobs = args.jobs();
    // What goes with shard 1 only: the property coverage, the hand-fused table, the sync table.
    const bool first_shard = !shard || shard->index == 1;
    const char* planted_env = std::getenv("EVGCHECK_CONFORMANCE_PLANTED");
    const bool planted = args.has("planted") || (planted_env != nullptr && std::string(planted_env) == "1");
    if (args.has("props") && args.has("props-log"))
        throw UsageError("evgcheck conformance: give --props or --props-log, not both");
    if (!args.has("list")) check_output_dir(out_dir.string(), "out", "conformance");

    // The catalogue's cases matching --filter and --arch (a case without an arch stays), then the planted
    // failing case when asked for, whatever the filter says.
    std::vector<conformance::CaseSpec> specs = conformance::all_cases();
    // With --catlass-root, the node suite on upstream's nodes (upstream_conformance.hpp: compiled in, or at
    // run time for any checkout and family), after the catalogue.
    std::optional<reports::UpstreamCheckout> upstream;
    std::function<std::string()> upstream_compilers;  // after the run: what built upstream's kernel code
    std::error_code self_ec;
    const std::string self = std::filesystem::read_symlink("/proc/self/exe", self_ec).string();
    if (const auto root = args.get("catlass-root")) {
#ifdef EVGCHECK_HAS_UPSTREAM
        try {
            evg::upstream::UpstreamSuiteOptions o;
            o.root = *root;
            o.binary = self;
            o.out_root = (out_dir / "replays").string();
            o.filter = filter;
            if (const auto families = args.get("families"); families && *families != "all")
                for (std::string_view rest = *families; !rest.empty();) {
                    const size_t comma = std::min(rest.find(','), rest.size());
                    o.families.emplace_back(rest.substr(0, comma));
                    rest.remove_prefix(std::min(comma + 1, rest.size()));
                }
            if (const auto work = args.get("work-dir")) o.work_dir = *work;
            evg::upstream::UpstreamSuite suite = evg::upstream::upstream_suite(o);
            std::vector<conformance::CaseSpec>& theirs = suite.cases;
            const evg::acl::CatlassCheckout c = evg::acl::identify_catlass_checkout(*root);
            upstream = reports::UpstreamCheckout{c.root,       c.git_commit,
                                                 c.version,    c.tested ? std::string(c.tested->name) : "",
                                                 c.describe(), {}};
            upstream_compilers = suite.kernel_compilers;
            for (const std::string& l : suite.left_out)
                std::cout << "upstream cell left out (its problem breaks a kernel rule under the family): "
                          << l << "\n";
            for (const conformance::CaseSpec& t : theirs)
                upstream->cells.insert(
                    reports::Matrix::key(t.node_kind, reports::matrix_dtype(t.dtype), t.arch));
            specs.insert(specs.end(), std::make_move_iterator(theirs.begin()),
                         std::make_move_iterator(theirs.end()));
        } catch (const evg::Error& e) {
            throw UsageError(std::string("evgcheck conformance: ") + e.what());
        }
#else
        throw UsageError(
            fmt::format("evgcheck conformance: option --catlass-root: this evgcheck was built without a "
                        "Catlass checkout, so "
                        "it holds none of upstream's nodes ({}): configure it with -DEVG_CATLASS_ROOTS={}",
                        *root, *root));
#endif
    }
    std::erase_if(specs, [&](const conformance::CaseSpec& s) {
        return (!filter.empty() && !conformance::glob_match(filter, s.id)) ||
               (!s.arch.empty() && std::find(archs.begin(), archs.end(), s.arch) == archs.end());
    });
    if (planted) specs.push_back(conformance::planted_failing_case());
    // The planted case is not in the catalogue: its replay needs --planted, wherever it is printed.
    const std::string planted_id = planted ? specs.back().id : std::string();
    const size_t selected = specs.size();
    if (selected == 0)
        throw UsageError(fmt::format("evgcheck conformance: no case matches --filter '{}' on {} (see --list)",
                                     filter, fmt::join(archs, ", ")));
    // A shard runs its share of the selection (evg/shard.hpp); `positions`: each case's place in the whole.
    std::vector<size_t> positions;
    if (shard) {
        std::vector<conformance::CaseSpec> mine;
        for (size_t i = 0; i < specs.size(); ++i)
            if (shard->holds(i)) {
                mine.push_back(std::move(specs[i]));
                positions.push_back(i);
            }
        specs = std::move(mine);
    }
    if (args.has("list")) {
        for (const auto& s : specs) std::cout << s.id << "\n";
        return kExitOk;
    }
    const size_t matching = specs.size();

    reports::PropsCoverage props;
    if (const auto log = args.get("props-log")) {
        std::ifstream f(*log);
        if (!f) throw InputError("evgcheck conformance: --props-log: cannot read '" + *log + "'");
        std::stringstream s;
        s << f.rdbuf();
        props = reports::parse_props_coverage(s.str(), *log);
        if (!props.run)
            throw InputError("evgcheck conformance: --props-log: '" + *log +
                             "' holds no coverage table (\"coverage over N cases:\")");
    }
    std::optional<reports::SyncTableData> sync_table;
    if (const auto file = args.get("sync-table")) {
        std::ifstream f(*file);
        if (!f) throw InputError("evgcheck conformance: --sync-table: cannot read '" + *file + "'");
        std::stringstream s;
        s << f.rdbuf();
        try {
            sync_table = reports::parse_sync_table_json(s.str());
        } catch (const std::runtime_error& e) {
            throw InputError("evgcheck conformance: --sync-table: '" + *file + "': " + e.what());
        }
    }
    // The budget stops new cases from starting, and the report of what ran is written, marked partial; the
    // alarm is only a backstop for a case that does not return.
    arm_time_budget(budget + std::max(60.0, budget / 2), "--time-budget");
    const auto deadline = start + std::chrono::milliseconds(static_cast<long long>(budget * 1000));
    if (!first_shard) {
        props = {};
        sync_table.reset();
        hand_fused = false;
    }
    if (args.has("props") && first_shard)
        props = run_props(start + std::chrono::milliseconds(static_cast<long long>(budget * 1000)));

    std::cout << fmt::format(
                     "evgcheck conformance: {} cases{}{} on {}\n", matching,
                     shard ? fmt::format(" (shard {} of the {} selected)", shard->text(), selected) : "",
                     filter.empty() ? "" : " matching '" + filter + "'", fmt::join(archs, ", "))
              << std::flush;
    const bool verbose = args.has("verbose");
    const bool tty = ::isatty(2) != 0;
    // Every replay line names this evgcheck and a report folder of its own under --out, by absolute paths: it
    // runs as printed from any folder and never replaces this run's report (an upstream case's names the
    // checkout too).
    const std::string upstream_option =
        upstream ? "--catlass-root " + conformance::shell_quote(upstream->root) : std::string();
    const auto replay_of = [&](const conformance::CaseResult& r) {
        if (r.replay.empty()) return r.replay;
        std::string line = self_ec
                               ? r.replay
                               : conformance::replay_command(r.id, self, (out_dir / "replays").string(),
                                                             r.suite == "upstream" ? upstream_option : "");
        if (planted && r.id == planted_id) line += " --planted";
        return line;
    };
    size_t done = 0, failed = 0, next_note = 0;
    auto last_note = std::chrono::steady_clock::now();
    const auto progress = [&](const conformance::CaseResult& r) {
        ++done;
        if (r.status == conformance::Status::fail) {
            ++failed;
            std::cerr << (tty ? "\r\033[K" : "") << "FAIL " << r.id << ": " << r.message
                      << "\n  replay: " << replay_of(r) << "\n";
        } else if (verbose) {
            std::cerr << (tty ? "\r\033[K" : "") << reports::status_word(r.status) << " " << r.id << " ("
                      << fmt::format("{:.2f}", r.seconds) << " s)\n";
        }
        const auto now = std::chrono::steady_clock::now();
        if (tty) {
            std::cerr << fmt::format("\r\033[K{}/{} cases, {} failed", done, matching, failed) << std::flush;
        } else if (done >= next_note || now - last_note > std::chrono::seconds(30) || done == matching) {
            std::cerr << fmt::format("{}/{} cases, {} failed, {:.0f} s\n", done, matching, failed,
                                     std::chrono::duration<double>(now - start).count());
            next_note = done + std::max<size_t>(1, matching / 10);
            last_note = now;
        }
    };
    reports::ReportInput in;
    in.results = conformance::run_cases(
        specs, "", progress, [&] { return std::chrono::steady_clock::now() >= deadline; }, jobs);
    if (in.results.size() < specs.size()) {
        in.partial = fmt::format("the time budget of {:.0f} s ran out", budget);
        in.not_run = specs.size() - in.results.size();
    }
    for (auto& r : in.results) r.replay = replay_of(r);
    if (tty) std::cerr << "\r\033[K";
    ::alarm(0);
    in.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    in.filter = filter;
    in.archs = archs;
    // The command line the report names, without --jobs (which changes how long a run takes, not its
    // report: a report is the same for every --jobs); a shard's run without what may differ from shard to
    // shard.
    in.command = command_text("conformance", argv, kConformanceOptions, {"jobs"});
    if (upstream && upstream_compilers)
        upstream->description += "; kernel code built by " + upstream_compilers();
    in.upstream = upstream;
    in.props = props;
    in.sync_table = sync_table;
    in.controls = conformance::required_controls();
    const bool whole_selection = filter.empty() && archs.size() == std::size(kArchNames);
    in.ran_all = !shard && whole_selection && in.partial.empty();
    if (shard) {
        positions.resize(in.results.size());  // the cases that ran, when the time budget stopped the shard
        in.shard = reports::ShardInfo{*shard,
                                      command_text("conformance", argv, kConformanceOptions,
                                                   {"jobs", "shard", "out", "time-budget", "work-dir"}),
                                      positions, selected, whole_selection};
    }
    if (hand_fused && std::chrono::steady_clock::now() < deadline) {
        in.hand_fused = run_hand_fused(archs);
        std::cout << "hand-fused epilogues: " << reports::hand_fused_summary(*in.hand_fused) << "\n";
    }

    const auto paths = reports::write_all(in, out_dir);
    std::cout << "\n" << reports::text_matrix(reports::build_matrix(in.results)) << "\n";
    if (upstream) std::cout << reports::side_by_side_text(in) << "\n";
    const reports::Totals t = reports::totals(in.results);
    for (const char* suite : {"negative", "hazard", "upstream"}) {
        std::vector<conformance::CaseResult> of_suite;
        for (const auto& r : in.results)
            if (r.suite == suite) of_suite.push_back(r);
        if (of_suite.empty()) continue;
        const reports::Totals s = reports::totals(of_suite);
        std::cout << fmt::format("{} cases: {} passed, {} failed\n", suite, s.passed, s.failed);
    }
    if (t.failed > 0) {
        std::cout << "failing cases (replay each alone):\n";
        for (const auto& r : in.results)
            if (r.status == conformance::Status::fail) std::cout << "  " << r.replay << "\n";
        std::cout << "\n";
    }
    std::cout << "report:";
    for (const auto& p : paths) std::cout << " " << p.string();
    std::cout << "\n";
    if (shard)
        std::cout << fmt::format(
            "shard {}: the report of the whole run is `evgcheck report merge --out DIR` with the {} shards' "
            "--out folders\n",
            shard->text(), shard->count);
    const std::vector<reports::AliveCell> alive = reports::proven_alive(in);
    std::cout << reports::alive_summary(alive) << "\n";
    if (const std::string born = reports::fp_born_summary(in); !born.empty()) std::cout << born << "\n";
    std::cout << reports::summary_line(in) << "\n";
    if (t.failed > 0) return kExitFailed;
    for (const reports::AliveCell& c : alive)
        if (c.state == reports::Alive::not_proven) return kExitFailed;  // a control that did not fire
    if (in.hand_fused)
        for (const reports::HandFusedRow& r : *in.hand_fused)
            if (!r.ok) return kExitFailed;
    return in.partial.empty() ? kExitOk : kExitInternal;  // a partial run is not a pass
#endif
}

}  // namespace evgcheck
