// evgcheck run-program BINARY [args...]: a user's Catlass program, built with evgcheck_add_program, run on
// the model under chosen schedules, with its reports gathered, its timeline drawn and its sync mutated. The
// program talks to evgcheck through the ACL shim's environment, whose one table is
// lib/ascendc/include/acl/program_env.def.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "acl/kernel_compiler.hpp"
#include "acl/kernel_order.hpp"
#include "acl/program_env.hpp"
#include "args.hpp"
#include "commands.hpp"
#include "evg/hw/error.hpp"
#include "evg/hw/report.hpp"
#include "evg/hw/sync_mutation.hpp"
#include "evg/hw/timing.hpp"
#include "evg/hw/trace_file.hpp"
#include "evg/verify/known_findings.hpp"
#include "problem_options.hpp"
#ifdef EVGCHECK_HAS_REPORTS
#include "evg/reports/cycle_summary.hpp"
#include "evg/reports/timeline.hpp"
#endif
#include "evg/process/subprocess.hpp"

namespace evgcheck {

namespace {

constexpr std::string_view kSchedulers[] = {"in_order", "adversarial"};

constexpr std::array kRunProgramOptions = {
    OptionSpec{"scheduler", "in_order|adversarial", "the schedule of every launch (default in_order)"},
    OptionSpec{"seeds", "N", "adversarial: run the program N times, scheduler seeds S .. S+N-1 (default 1)"},
    OptionSpec{"seed", "S", "adversarial: the first scheduler seed (default 1)"},
    OptionSpec{"report", "FILE.json", "write every run's verdict and every launch's report as JSON"},
    OptionSpec{
        "timeline", "FILE.json|FILE.html",
        "time the first run's launch with the cycle model (docs/cycle-model.md), print its summary and "
        "write the timeline: Chrome trace / Perfetto JSON, or a self-contained page"},
    OptionSpec{"launch", "K", "--timeline: the program's K-th kernel launch (default 1)"},
    OptionSpec{"list-mutations", "",
               "run the program once in order and list every sync mutation point of its launches (each a "
               "--mutate text)"},
    OptionSpec{"mutate", "TEXT",
               "rewrite sync calls of every launch as they are issued, e.g. 'drop-wait core=AIV0.1 n=7' "
               "(several: ';'-separated)"},
    kCheckOption,
    kFpOption,
    OptionSpec{
        "known", "FILE",
        "findings that do not fail a run, one a line: '<kind> <file>:<line>' (the kind and the site of the "
        "finding's first instruction) or '<kind> <file>: <start of that line's text>', which survives "
        "edits that move the line; '#' starts a comment. Entries that matched nothing are listed at the "
        "end"},
    OptionSpec{"expect", "TEXT",
               "a run fails unless the program prints a line equal to TEXT, e.g. 'Compare success.'"},
    OptionSpec{"timeout", "SECONDS", "give up on one run of the program after this long (default 300)"},
    OptionSpec{
        "other-order", "BINARY",
        "the same program built by a compiler that evaluates arguments in the other order "
        "(evgcheck_add_program KERNEL_COMPILER): every run is made with both, the one built in Bisheng's "
        "order (left to right) gives the verdict, and a finding only one build shows is listed with the "
        "order it depends on"},
    OptionSpec{"help", "", "print this help"},
};

constexpr const char* kRunProgramUsage =
    "Usage: evgcheck run-program [options] BINARY [program arguments...]\n"
    "\n"
    "Runs a Catlass host program built with evgcheck_add_program (docs/check-your-program.md) on the model:\n"
    "once in order, or N times under the adversarial scheduler. Every kernel launch is checked by every\n"
    "checker; the program's own checks (\"Compare success.\") still run. A run passes when the program\n"
    "exits 0, made at least one kernel launch, and every launch is clean (and, with --mutate, every\n"
    "mutation found its sync call). Everything after BINARY goes to the program (use -- before BINARY if\n"
    "its name starts with a dash).\n"
    "\n";

struct RunSpec {
    std::string label;  // "in order", "adversarial seed 3"
    std::string scheduler;
    uint64_t seed = 0;
    std::string checks;  // --check: opt-in checkers (EVG_CHECK)
    std::string fp;      // --fp: the checker fp's policy (EVG_FP)
};

struct RunResult {
    RunSpec spec;
    evg::process::ProcessResult process;
    std::vector<evg::hw::Report> launches;  // the program's launch reports (EVG_REPORT)
    std::vector<evg::hw::Report> host;      // its host reports (Report::host(): uninit_to_host)
    // What the program was built from (EVG_ABOUT): {"catlass": the checkout, null when the program did not
    // register one; "kernel_compilers": acl/kernel_compiler.hpp}, absent (discarded) when it made no launch.
    nlohmann::json about = nlohmann::json::value_t::discarded;
    std::vector<std::string> known;  // "race at tile_mmad.hpp:148": findings --known excuses
    std::string verdict;             // "clean", or what failed
    bool ok = false;
};

// What a run must show besides clean reports (--known, --expect). The known findings count their matches
// over every run.
struct Expectations {
    evg::verify::KnownFindings known;
    std::string expect_line;
};

// A folder of its own for the files the program writes, removed at the end.
class TempDir {
  public:
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "evgcheck-run-program-XXXXXX").string();
        if (!::mkdtemp(tmpl.data())) throw evg::Error("run-program: cannot create a temporary folder");
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string file(const std::string& name) const { return (path_ / name).string(); }

  private:
    std::filesystem::path path_;
};

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The program's environment: every variable of the table is set here (empty when this run does not use it),
// so that the caller's own EVG_ variables never change what the run means.
std::map<std::string, std::string> program_env(const RunSpec& spec, const std::string& report,
                                               const std::string& about, const std::string& mutate,
                                               const std::string& trace_out,
                                               const std::string& list_mutations) {
    using evg::acl::ProgramEnv;
    std::map<std::string, std::string> env;
    for (const evg::acl::ProgramEnvVar& v : evg::acl::kProgramEnv) {
        std::string value;
        switch (v.id) {
            case ProgramEnv::report:
                value = report;
                break;
            case ProgramEnv::about:
                value = about;
                break;
            case ProgramEnv::strict:
                break;  // the verdict comes from the reports, not the exit status
            case ProgramEnv::scheduler:
                value = spec.scheduler;
                break;
            case ProgramEnv::seed:
                value = std::to_string(spec.seed);
                break;
            case ProgramEnv::check:
                value = spec.checks;
                break;
            case ProgramEnv::fp:
                value = spec.fp;
                break;
            case ProgramEnv::mutate:
                value = mutate;
                break;
            case ProgramEnv::list_mutations:
                value = list_mutations;
                break;
            case ProgramEnv::trace_out:
                value = trace_out;
                break;
        }
        env.emplace(v.name, std::move(value));
    }
    return env;
}

// Whether the program printed `line` as a whole line.
bool printed_line(const std::string& output, const std::string& line) {
    std::istringstream lines(output);
    std::string l;
    while (std::getline(lines, l))
        if (l == line) return true;
    return false;
}

// The verdict of one run from its exit status and its reports.
void judge_run(RunResult& r, Expectations& x) {
    const evg::process::ProcessResult& p = r.process;
    std::map<std::string, int> kinds;
    std::vector<std::string> unapplied;
    std::set<std::string> known;
    std::map<std::string, evg::hw::FpCounts::InGm> in_gm;  // by buffer, summed over the launches
    std::set<std::string> fp_warnings;
    for (const std::vector<evg::hw::Report>* reports : {&r.launches, &r.host})
        for (const evg::hw::Report& l : *reports) {
            for (const evg::hw::Violation& v : l.violations) {
                const std::string kind(evg::hw::violation_kind_name(v.kind));
                if (v.severity != evg::hw::Severity::error) {
                    // A NaN or infinity born but not failing the run (it stayed in UB, or --fp warn) is still
                    // named in the verdict.
                    if (evg::hw::violation_kind_finder(v.kind) == "fp" && !v.locations.empty()) {
                        const evg::hw::Location& at = v.locations.front();
                        fp_warnings.insert(
                            fmt::format("{} at {}", kind, at.user_site.empty() ? at.site : at.user_site));
                    }
                    continue;
                }
                const std::string site = v.locations.empty() ? "" : v.locations.front().site;
                if (x.known.match(v)) {
                    known.insert(fmt::format("{} at {}", kind, site));
                    continue;
                }
                ++kinds[kind];
            }
            unapplied.insert(unapplied.end(), l.mutations_unapplied.begin(), l.mutations_unapplied.end());
            // NaN and infinities in GM (the checker fp's counts): those no born event explains are not
            // findings, and the verdict still says they are there.
            for (const evg::hw::FpCounts::InGm& g : l.fp.gm) {
                evg::hw::FpCounts::InGm& sum = in_gm[g.buffer];
                sum.buffer = g.buffer;
                sum.nan += g.nan;
                sum.inf += g.inf;
                sum.from_inputs += g.from_inputs;
            }
        }
    std::vector<std::string> parts;
    if (p.timed_out)
        parts.emplace_back("timed out (killed)");
    else if (p.signal)
        parts.push_back(fmt::format("killed by signal {}", p.signal));
    else if (p.exit_code != 0)
        parts.push_back(fmt::format("the program exited {}", p.exit_code));
    if (r.launches.empty() && !p.timed_out && !p.signal)
        parts.emplace_back(
            "no kernel launch was reported (the program ran no kernel on the model, or did not reach "
            "aclrtSynchronizeStream; was it built with evgcheck_add_program?)");
    if (!x.expect_line.empty() && !p.timed_out && !printed_line(p.output, x.expect_line))
        parts.push_back(fmt::format("the program did not print '{}'", x.expect_line));
    r.known.assign(known.begin(), known.end());
    if (!kinds.empty()) {
        std::string k;
        for (const auto& [kind, n] : kinds) k += fmt::format("{}{} ({})", k.empty() ? "" : ", ", kind, n);
        parts.push_back("findings: " + k);
    }
    for (const std::string& m : unapplied)
        parts.push_back("mutation not applied (its sync call never ran): " + m);
    r.ok = parts.empty();
    std::vector<std::string> numbers;  // "D holds 1234 NaN (all passed on from the inputs)"
    for (const auto& [buffer, g] : in_gm)
        if (std::string t = g.text(); !t.empty()) numbers.push_back(std::move(t));
    if (r.ok) {
        r.verdict = "clean";
        if (!r.known.empty()) {
            r.verdict += " but for known findings: ";
            for (size_t i = 0; i < r.known.size(); ++i) r.verdict += (i ? ", " : "") + r.known[i];
        }
        if (!numbers.empty()) r.verdict += fmt::format(" but {}", fmt::join(numbers, ", "));
        if (!fp_warnings.empty()) r.verdict += fmt::format("; warnings: {}", fmt::join(fp_warnings, ", "));
        return;
    }
    r.verdict.clear();
    for (const std::string& s : parts) r.verdict += (r.verdict.empty() ? "" : "; ") + s;
    if (!numbers.empty()) r.verdict += fmt::format("; {}", fmt::join(numbers, ", "));
}

RunResult run_once(const std::string& program, const std::vector<std::string>& args, const RunSpec& spec,
                   const std::string& mutate, const TempDir& tmp, const std::string& trace_out,
                   const std::string& list_mutations, double timeout, Expectations& x) {
    RunResult r;
    r.spec = spec;
    const std::string report = tmp.file("report.json");
    const std::string about = tmp.file("about.json");
    std::filesystem::remove(report);
    std::filesystem::remove(about);
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<int64_t>(timeout * 1000));
    r.process = evg::process::run_process(
        program, args, program_env(spec, report, about, mutate, trace_out, list_mutations), deadline);
    if (std::filesystem::exists(about)) r.about = nlohmann::json::parse(read_file(about), nullptr, false);
    if (std::filesystem::exists(report)) {
        try {
            // Host reports (a device-to-host copy's findings) stand apart: launches are counted and numbered.
            for (const nlohmann::json& entry : nlohmann::json::parse(read_file(report))) {
                evg::hw::Report one = evg::hw::Report::from_json(entry.dump());
                (one.host() ? r.host : r.launches).push_back(std::move(one));
            }
        } catch (const std::exception& e) {  // the JSON's parser, or Report::from_json
            r.launches.clear();
            r.host.clear();
            r.process.output +=
                fmt::format("\nevgcheck run-program: the report file is damaged: {}\n", e.what());
        }
    }
    judge_run(r, x);
    return r;
}

// The line naming the program's Catlass checkout, and the one naming the compiler of its kernel code.
std::string catlass_line(const nlohmann::json& about) {
    if (about.is_discarded()) return "not known (no run made a kernel launch, where the program tells it)";
    const nlohmann::json catlass = about.value("catlass", nlohmann::json());
    if (catlass.is_null())
        return "not recorded (the program was not built with evgcheck_add_program or evgcheck_use_catlass)";
    return catlass.value("description", "?");
}
// The compilers the program registered (its EVG_ABOUT record).
std::vector<evg::acl::KernelCompiler> kernel_compilers(const nlohmann::json& about) {
    if (!about.is_object()) return {};
    return evg::acl::kernel_compilers_from_json(
        about.value("kernel_compilers", nlohmann::json::array()).dump());
}
std::string compiler_line(const nlohmann::json& about) {
    if (about.is_discarded()) return "not known (no run made a kernel launch, where the program tells it)";
    std::string out;
    for (const evg::acl::KernelCompiler& c : kernel_compilers(about))
        out += (out.empty() ? "" : "; ") + c.describe();
    return out.empty() ? "not recorded (no translation unit of the program included kernel_operator.h)" : out;
}
// Whether the program's kernel code was built in Bisheng's order; nullopt when it is not known or mixed.
std::optional<bool> bisheng_order(const nlohmann::json& about) {
    return evg::acl::in_bishengs_order(kernel_compilers(about));
}

// The findings (errors) of a run by kind and first site, with the first message of each.
evg::acl::FindingsBySite findings_by_site(const RunResult& r) {
    evg::acl::FindingsBySite out;
    for (const std::vector<evg::hw::Report>* reports : {&r.launches, &r.host})
        for (const evg::hw::Report& l : *reports)
            for (const evg::hw::Violation& v : l.violations) {
                if (v.severity != evg::hw::Severity::error) continue;
                const std::string site = v.locations.empty() ? "" : v.locations.front().site;
                out.emplace(evg::acl::finding_key(std::string(evg::hw::violation_kind_name(v.kind)), site),
                            v.message);
            }
    return out;
}

// Reports as the JSON array the program wrote them in.
nlohmann::json reports_json(const std::vector<evg::hw::Report>& reports) {
    nlohmann::json out = nlohmann::json::array();
    for (const evg::hw::Report& r : reports) out.push_back(nlohmann::json::parse(r.json()));
    return out;
}

void print_output(const std::string& output) {
    std::istringstream lines(output);
    std::string line;
    while (std::getline(lines, line)) std::cout << "    | " << line << "\n";
}

int list_mutations(const std::string& program, const std::vector<std::string>& args, double timeout) {
    TempDir tmp;
    const std::string list = tmp.file("mutations.txt");
    Expectations none;
    const RunResult r =
        run_once(program, args, {"in order", "in_order", 0, "", ""}, "", tmp, "", list, timeout, none);
    if (!std::filesystem::exists(list)) {
        std::cout << "run: " << r.verdict << "\n";
        print_output(r.process.output);
        std::cerr
            << "evgcheck run-program: the program made no kernel launch, so there is nothing to mutate\n";
        return kExitFailed;
    }
    std::cout << read_file(list);
    if (!r.ok)
        std::cerr << "evgcheck run-program: note: the unmutated run was not clean: " << r.verdict << "\n";
    return kExitOk;
}

#ifdef EVGCHECK_HAS_REPORTS
// The instructions the findings of launch `launch_k` (its report, 1-based) name, with the finding's kind and
// message: where a NaN was born, the two sides of a race.
std::map<uint64_t, std::string> finding_marks(const std::vector<evg::hw::Report>& reports, int launch_k) {
    std::map<uint64_t, std::string> marks;
    if (launch_k < 1 || static_cast<size_t>(launch_k) > reports.size()) return marks;
    for (const evg::hw::Violation& v : reports[static_cast<size_t>(launch_k - 1)].violations)
        for (const evg::hw::Location& l : v.locations)
            if (l.instr != 0)
                marks.try_emplace(l.instr,
                                  fmt::format("{}: {}", evg::hw::violation_kind_name(v.kind), v.message));
    return marks;
}

void write_timeline(const std::string& trace_file, int launch_k, const std::string& path,
                    const std::string& title, const std::vector<evg::hw::Report>& reports) {
    const std::vector<evg::hw::LaunchRecord> launches = evg::hw::read_trace_file(trace_file);
    if (launch_k > static_cast<int>(launches.size()))
        throw UsageError(
            fmt::format("evgcheck run-program: option --launch: the program made {} launch(es), not {}",
                        launches.size(), launch_k));
    const evg::hw::LaunchRecord& l = launches[static_cast<size_t>(launch_k - 1)];
    const evg::hw::timing::Timeline t = evg::hw::timing::simulate(l.trace, l.launch);
    const std::string summary = evg::reports::cycle_summary_text(t, l.trace, l.launch);
    std::cout << summary;
    const evg::reports::TimelineInput in{
        l.trace,
        t,
        l.node_labels,
        fmt::format("{} (launch {} of {}, {} on {} block(s))", title, launch_k, launches.size(),
                    evg::hw::arch_name(l.launch.arch), l.launch.block_dim),
        summary,
        finding_marks(reports, launch_k)};
    std::ofstream f(path);
    if (path.ends_with(".html"))
        evg::reports::write_timeline_html(f, in);
    else
        evg::reports::write_timeline_json(f, in);
    if (!f.flush()) throw UsageError("evgcheck run-program: option --timeline: cannot write '" + path + "'");
    std::cout << "timeline: " << path << "\n";
}
#endif

}  // namespace

int run_program_command(std::span<const char* const> argv) {
    // evgcheck's options come first; the first other word (or the word after --) is the program.
    size_t program_at = 0;
    const Args args = Args::parse_options_then_operands(argv, kRunProgramOptions, "run-program", program_at);
    if (args.has("help")) {
        std::cout << kRunProgramUsage << options_help(kRunProgramOptions);
        return kExitOk;
    }
    const auto rest = argv.subspan(program_at);
    if (rest.empty())
        throw UsageError(
            "evgcheck run-program: no program given (evgcheck run-program [options] BINARY [args...])");
    const std::string program = rest[0];
    const std::vector<std::string> program_args(rest.begin() + 1, rest.end());
    std::error_code ec;
    if (!std::filesystem::is_regular_file(program, ec) || ::access(program.c_str(), X_OK) != 0)
        throw UsageError(fmt::format("evgcheck run-program: '{}' is not an executable file", program));

    const double timeout = args.seconds("timeout", 86400).value_or(300);
    const std::string scheduler = args.choice("scheduler", kSchedulers).value_or("in_order");
    const long long seeds = args.integer("seeds", 1, 100000).value_or(1);
    const long long first_seed = args.integer("seed", 0, std::numeric_limits<long long>::max()).value_or(1);
    if (scheduler == "in_order" && (args.has("seeds") || args.has("seed")))
        throw UsageError("evgcheck run-program: options --seeds and --seed need --scheduler adversarial");
    std::string mutate;
    if (const auto m = args.get("mutate")) {
        try {
            (void)evg::hw::parse_sync_mutations(*m);
        } catch (const evg::Error& e) {
            throw UsageError(std::string("evgcheck run-program: option --mutate: ") + e.what());
        }
        mutate = *m;
    }
    if (args.has("list-mutations")) {
        if (args.has("mutate") || args.has("timeline") || args.has("report"))
            throw UsageError(
                "evgcheck run-program: --list-mutations runs the program once and prints; it takes no "
                "--mutate, --timeline or --report");
        return list_mutations(program, program_args, timeout);
    }
    std::optional<std::string> other = args.get("other-order");
    if (other && (!std::filesystem::is_regular_file(*other, ec) || ::access(other->c_str(), X_OK) != 0))
        throw UsageError(fmt::format(
            "evgcheck run-program: option --other-order: '{}' is not an executable file", *other));
    if (other && (args.has("timeline") || args.has("mutate")))
        throw UsageError("evgcheck run-program: option --other-order takes no --timeline or --mutate");
    Expectations expectations;
    if (const auto k = args.get("known")) {
        try {
            expectations.known = evg::verify::KnownFindings::read(*k);
        } catch (const evg::Error& e) {
            throw UsageError(std::string("evgcheck run-program: option --known: ") + e.what());
        }
    }
    expectations.expect_line = args.get("expect").value_or("");
    const std::optional<std::string> report_path = args.get("report");
    if (report_path) check_output_file(*report_path, "report", "run-program");
    const std::optional<std::string> timeline_path = args.get("timeline");
    const long long launch_k = args.integer("launch", 1, 1000000).value_or(1);
    if (args.has("launch") && !timeline_path)
        throw UsageError("evgcheck run-program: option --launch chooses the launch of --timeline");
    if (timeline_path) {
#ifndef EVGCHECK_HAS_REPORTS
        throw UsageError("evgcheck run-program: option --timeline: this evgcheck was built without reports/");
#endif
        check_timeline_file(*timeline_path, "run-program");
    }

    const std::string checks = read_checks(args, "run-program");
    const std::string fp = read_fp(args, "run-program");
    std::vector<RunSpec> specs;
    if (scheduler == "in_order") {
        specs.push_back({"in order", "in_order", 0, checks, fp});
    } else {
        for (long long i = 0; i < seeds; ++i) {
            const auto s = static_cast<uint64_t>(first_seed) + static_cast<uint64_t>(i);
            specs.push_back({fmt::format("adversarial seed {}", s), "adversarial", s, checks, fp});
        }
    }

    std::string command_line = program;
    for (const std::string& a : program_args) command_line += " " + a;
    std::cout << "evgcheck run-program: " << command_line
              << (mutate.empty() ? "" : "  (mutated: " + mutate + ")") << "\n";
    TempDir tmp;
    const std::string trace_out = timeline_path ? tmp.file("trace.bin") : "";
    std::vector<RunResult> results;
    std::vector<std::vector<evg::acl::OrderDependentFinding>> order_findings;  // per run, with --other-order
    // The other build's runs count their known findings apart, so that the summary counts one build's.
    Expectations other_expectations = expectations;
    bool other_is_bisheng = false;
    int passed = 0;
    for (size_t i = 0; i < specs.size(); ++i) {
        RunResult r = run_once(program, program_args, specs[i], mutate, tmp, i == 0 ? trace_out : "", "",
                               timeout, expectations);
        std::vector<evg::acl::OrderDependentFinding> od;
        if (other) {
            RunResult o =
                run_once(*other, program_args, specs[i], mutate, tmp, "", "", timeout, other_expectations);
            const std::optional<bool> mine = bisheng_order(r.about);
            const std::optional<bool> theirs = bisheng_order(o.about);
            if (!mine || !theirs || *mine == *theirs) {
                r.ok = false;
                r.verdict += fmt::format(
                    "{}--other-order: the two builds do not evaluate arguments in opposite orders ({}: {}; "
                    "{}: "
                    "{})",
                    r.verdict.empty() ? "" : "; ", program, compiler_line(r.about), *other,
                    compiler_line(o.about));
            } else {
                other_is_bisheng = *theirs;
                if (*theirs) std::swap(r, o);  // the verdict is the build in Bisheng's order
                od = evg::acl::order_dependent_findings(findings_by_site(r), findings_by_site(o));
            }
        }
        std::cout << fmt::format("run {}/{}  {:<22} exit {:<3} {} launch(es)  {}\n", i + 1, specs.size(),
                                 r.spec.label, r.process.exit_code, r.launches.size(), r.verdict);
        for (const evg::acl::OrderDependentFinding& d : od)
            std::cout << fmt::format("    order-dependent: {}: {}\n      {}\n", d.finding, d.label,
                                     d.message);
        if (!r.ok) {
            print_output(r.process.output);
        } else {
            ++passed;
        }
        results.push_back(std::move(r));
        order_findings.push_back(std::move(od));
    }
#ifdef EVGCHECK_HAS_REPORTS
    if (timeline_path) {
        if (!std::filesystem::exists(trace_out))
            std::cerr << "evgcheck run-program: no timeline: the program made no kernel launch\n";
        else
            write_timeline(trace_out, static_cast<int>(launch_k), *timeline_path,
                           command_line + ", " + results.front().spec.label, results.front().launches);
    }
#endif
    const bool ok = passed == static_cast<int>(results.size());
    // Which Catlass the program was built against, and by which compiler (the first run that launched a
    // kernel says; with --other-order, the build in Bisheng's order).
    nlohmann::json about = nlohmann::json::value_t::discarded;
    for (const RunResult& r : results)
        if (!r.about.is_discarded()) {
            about = r.about;
            break;
        }
    const nlohmann::json catlass = about.is_discarded() ? about : about.value("catlass", nlohmann::json());
    std::cout << "catlass: " << catlass_line(about) << "\n";
    std::cout << "kernel compiler: " << compiler_line(about) << "\n";
    if (report_path) {
        nlohmann::json j;
        j["program"] = program;
        j["args"] = program_args;
        j["mutate"] = mutate;
        j["catlass"] = catlass.is_discarded() ? nlohmann::json() : catlass;
        j["kernel_compilers"] =
            about.is_discarded() ? nlohmann::json() : about.value("kernel_compilers", nlohmann::json());
        j["ok"] = ok;
        auto& known = j["known_findings"] = nlohmann::json::array();  // each --known entry and its matches
        for (const evg::verify::KnownFinding& k :
             (other_is_bisheng ? other_expectations : expectations).known.entries())
            known.push_back({{"entry", k.spelling}, {"where", k.where}, {"hits", k.hits}});
        auto& runs = j["runs"] = nlohmann::json::array();
        for (size_t i = 0; i < results.size(); ++i) {
            const RunResult& r = results[i];
            nlohmann::json od = nlohmann::json::array();
            for (const evg::acl::OrderDependentFinding& d : order_findings[i])
                od.push_back({{"finding", d.finding}, {"message", d.message}, {"label", d.label}});
            runs.push_back({{"scheduler", r.spec.scheduler},
                            {"seed", r.spec.seed},
                            {"exit_code", r.process.exit_code},
                            {"signal", r.process.signal},
                            {"timed_out", r.process.timed_out},
                            {"ok", r.ok},
                            {"verdict", r.verdict},
                            {"known", r.known},
                            {"launches", reports_json(r.launches)},
                            {"host_reports", reports_json(r.host)},
                            {"order_dependent", od}});
        }
        std::ofstream f(*report_path);
        if (!f || !(f << j.dump(2) << "\n"))
            throw UsageError("evgcheck run-program: option --report: cannot write '" + *report_path + "'");
        std::cout << "report: " << *report_path << "\n";
    }
    // As the sanitizers list the suppressions they used: each entry with its matches, and those that matched
    // nothing in any run (an entry nobody needs any more, or one that no longer names the line it meant).
    const Expectations& verdict_expectations = other_is_bisheng ? other_expectations : expectations;
    if (!verdict_expectations.known.empty()) std::cout << verdict_expectations.known.summary();
    const auto excused = std::count_if(results.begin(), results.end(),
                                       [](const RunResult& r) { return r.ok && !r.known.empty(); });
    std::cout << fmt::format("result: {} ({} of {} run(s) clean{})\n", ok ? "PASS" : "FAIL", passed,
                             results.size(),
                             excused ? fmt::format(", {} of them but for --known findings", excused) : "");
    return ok ? kExitOk : kExitFailed;
}

}  // namespace evgcheck
