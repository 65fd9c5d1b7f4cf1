// evgcheck fuzz TARGET: a fuzz session over the libFuzzer binary fuzz_<TARGET> (the fuzz preset builds them).
// N workers (libFuzzer processes sharing the corpus folder) run until the time is up; a worker that stops on
// a finding is restarted for the time left. Findings are de-duplicated by signature (fuzz_output.hpp),
// minimised (-minimize_crash=1, kept only when the minimised input still gives the same signature) and saved
// under OUT/findings/<hash>/ (input, signature.txt, report.txt, replay.txt); OUT/report.md and report.json
// describe the session. A target that writes pattern coverage when EVG_FUZZ_PATTERNS=FILE is set (the sync
// fuzzers) is run once more over the corpus and over each finding's input, and the report lists each pattern
// with the corpus inputs and findings that reach it.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "args.hpp"
#include "commands.hpp"
#include "evg/process/subprocess.hpp"
#include "fuzz_output.hpp"
#include "pattern_table.hpp"

#ifdef EVGCHECK_HAS_REPORTS
#include "evg/reports/fuzz_session.hpp"

namespace evgcheck {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::array kFuzzOptions = {
    OptionSpec{"time", "SECONDS", "how long to fuzz (required)"},
    OptionSpec{"jobs", "N", "libFuzzer processes in parallel, sharing the corpus (default 1)"},
    OptionSpec{"corpus", "DIR", "the working corpus (default OUT/corpus; seeded from fuzz/corpus/TARGET)"},
    OptionSpec{"out", "DIR", "findings, artifacts and the report (default fuzz-out/TARGET)"},
    OptionSpec{"fuzz-bin", "DIR", "where fuzz_TARGET is (default: the fuzz build beside this evgcheck)"},
    OptionSpec{"minimize-time", "SECONDS", "time to minimise each finding (default 30)"},
    OptionSpec{"help", "", "print this help"},
};

constexpr const char* kFuzzUsage =
    "Usage: evgcheck fuzz TARGET --time SECONDS [options]\n"
    "\n"
    "Runs a fuzz session with the libFuzzer binary of TARGET (graph_text, problem_file, sync_program,\n"
    "epilogue_mutation, ...): a live progress line, findings de-duplicated by signature, each minimised\n"
    "and saved with a one-line replay command, and a session report (OUT/report.md, OUT/report.json).\n"
    "The binaries come from the fuzz build: cmake --preset fuzz && cmake --build build/fuzz\n"
    "libFuzzer gets the target's options from the .options file beside its binary (timeout, and say\n"
    "epilogue_mutation's detect_leaks=0 use_counters=0; fuzz/README.md, \"Session options\").\n"
    "Exit code: 0 no finding, 1 findings, 2 bad options or no fuzz binary.\n"
    "\n";

std::string self_dir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string(".") : exe.parent_path().string();
}

// A path as short as possible for printing: relative to the working directory when it lies below it.
std::string display(const fs::path& p) {
    std::error_code ec;
    const fs::path abs = fs::weakly_canonical(p, ec);
    const fs::path rel = fs::relative(abs, fs::current_path(), ec);
    if (!ec && !rel.empty() && *rel.begin() != "..") return rel.string();
    return abs.string();
}

// A path for a printed command: absolute, so that the command runs as printed from any folder.
std::string absolute_path(const fs::path& p) {
    std::error_code ec;
    const fs::path abs = fs::weakly_canonical(fs::absolute(p), ec);
    return ec ? fs::absolute(p).string() : abs.string();
}

std::string find_fuzzer(const std::string& target, const std::optional<std::string>& fuzz_bin) {
    std::vector<fs::path> dirs;
    if (fuzz_bin) {
        dirs.emplace_back(*fuzz_bin);
    } else {
        const fs::path self = self_dir();
        dirs = {self / ".." / "fuzz", self / ".." / ".." / "fuzz" / "fuzz"};
#ifdef EVGCHECK_SOURCE_DIR
        dirs.emplace_back(fs::path(EVGCHECK_SOURCE_DIR) / "build" / "fuzz" / "fuzz");
#endif
    }
    for (const fs::path& d : dirs) {
        for (const std::string& name : fuzzer_file_names(target)) {
            const fs::path p = d / name;
            if (fs::is_regular_file(p) && ::access(p.c_str(), X_OK) == 0)
                return fs::weakly_canonical(p).string();
        }
    }
    std::vector<std::string> looked;  // each folder once (the build beside evgcheck may be the source tree's)
    for (const fs::path& d : dirs)
        if (std::find(looked.begin(), looked.end(), display(d)) == looked.end()) looked.push_back(display(d));
    throw UsageError(
        fmt::format("evgcheck fuzz: no libFuzzer binary fuzz_{} (looked in {}); build them with: "
                    "cmake --preset fuzz && cmake --build build/fuzz{}",
                    target, fmt::join(looked, " "), fuzz_bin ? "" : ", or give --fuzz-bin DIR"));
}

// The target's options: the .options file beside the binary (fuzz_<name>.options in a build, <name>.options
// in an OSS-Fuzz out folder; written by evg_fuzz_target), if there is one.
TargetOptions target_options(const fs::path& fuzzer) {
    const fs::path p = fuzzer.string() + ".options";
    std::ifstream in(p);
    if (!in) return {};
    std::ostringstream text;
    text << in.rdbuf();
    try {
        return target_options_of(text.str());
    } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("evgcheck fuzz: {}: {}", display(p), e.what()));
    }
}

struct Finding {
    std::string signature;
    std::string hash;
    std::vector<std::string> report;  // the output from the finding's first line on
    std::string artifact;             // libFuzzer's crash input
    int count = 0;
    double first_seen = 0;  // seconds into the session
};

struct Totals {
    std::mutex mu;
    std::map<int, FuzzStatus> latest;  // per running worker
    uint64_t finished_execs = 0;       // execs of workers that ended
    uint64_t cov = 0, features = 0, corpus = 0;
    std::map<std::string, Finding> findings;  // by signature
    std::vector<std::string> unsigned_ends;   // worker ends with no recognisable finding
    std::string cannot_start;                 // why the binary could not be started, when it could not
    int set_aside = 0;                        // corpus inputs that ended a run, moved out of the corpus
};

// Moves the inputs of the working corpus that hold the bytes of `artifact` (the input a run ended on) into
// `aside`: a corpus input that makes a finding would end every later run while the corpus loads. Returns how
// many it moved.
int set_aside(const std::string& artifact, const fs::path& corpus, const fs::path& aside) {
    std::error_code ec;
    if (artifact.empty() || !fs::is_regular_file(artifact, ec)) return 0;
    const auto bytes_of = [](const fs::path& p) {
        std::ifstream in(p, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string wanted = bytes_of(artifact);
    int moved = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(corpus, ec)) {
        if (!e.is_regular_file() || e.file_size(ec) != wanted.size() || bytes_of(e.path()) != wanted)
            continue;
        fs::create_directories(aside, ec);
        fs::rename(e.path(), aside / e.path().filename(), ec);
        moved += ec ? 0 : 1;
    }
    return moved;
}

// Signatures whose finding only the sanitizers or libFuzzer's watchdog detect.
bool needs_sanitizer(std::string_view sig) {
    for (std::string_view kind : {"AddressSanitizer", "LeakSanitizer", "MemorySanitizer", "UBSan", "timeout",
                                  "libFuzzer: out-of-memory", "libFuzzer: deadly signal"}) {
        if (sig.starts_with(kind)) return true;
    }
    return false;
}

std::string progress_line(Totals& t, double elapsed, double total) {
    uint64_t execs = t.finished_execs;
    for (const auto& [w, s] : t.latest) execs += s.execs;
    return fmt::format("[{:>4.0f}/{:.0f} s] execs {}  exec/s {:.0f}  cov {}  ft {}  corpus {}  findings {}",
                       elapsed, total, execs, elapsed > 0 ? static_cast<double>(execs) / elapsed : 0.0, t.cov,
                       t.features, t.corpus, t.findings.size());
}

}  // namespace

int fuzz_command(std::span<const char* const> argv) {
    const Args args = Args::parse(argv, kFuzzOptions, "fuzz", 1);
    if (args.has("help")) {
        std::cout << kFuzzUsage << options_help(kFuzzOptions);
        return kExitOk;
    }
    if (args.positional().empty())
        throw UsageError("evgcheck fuzz: expected a TARGET (see evgcheck fuzz --help)");
    const std::string target = args.positional()[0];
    const std::optional<double> time = args.seconds("time", 7 * 86400);
    if (!time) throw UsageError("evgcheck fuzz: option --time is required (seconds of fuzzing)");
    const int jobs = static_cast<int>(args.integer("jobs", 1, 256).value_or(1));
    const double minimize_time = args.seconds("minimize-time", 3600).value_or(30);
    const fs::path out = args.get("out").value_or("fuzz-out/" + target);
    const fs::path corpus = args.get("corpus").value_or((out / "corpus").string());
    const std::string fuzzer = find_fuzzer(target, args.get("fuzz-bin"));
    const TargetOptions options = target_options(fuzzer);
    const int timeout = options.timeout;

    std::error_code ec;
    for (const fs::path& d : {out, corpus, out / "artifacts", out / "findings"}) {
        fs::create_directories(d, ec);
        if (ec) throw UsageError("evgcheck fuzz: cannot create " + d.string() + ": " + ec.message());
    }
    std::vector<std::string> seed_dirs;
#ifdef EVGCHECK_SOURCE_DIR
    for (const char* kind : {"corpus", "regressions"}) {
        const fs::path d = fs::path(EVGCHECK_SOURCE_DIR) / "fuzz" / kind / target;
        if (fs::is_directory(d)) seed_dirs.push_back(d.string());
    }
#endif
    // The seeds are copied into the working corpus, the one folder libFuzzer reads: a seed that makes a
    // finding is then set aside after the run it ended (set_aside), and the next run goes on past it. Read
    // from the source tree on every start instead, it would end every run while the corpus loads, and one
    // finding would hide every other.
    for (const std::string& d : seed_dirs)
        for (const fs::directory_entry& e : fs::directory_iterator(d, ec))
            if (e.is_regular_file() && !fs::exists(corpus / e.path().filename()))
                fs::copy_file(e.path(), corpus / e.path().filename(), ec);
    std::string dict;
    for (const fs::path& p : {fs::path(fuzzer + ".dict"), fs::path(fuzzer).parent_path() / (target + ".dict")
#ifdef EVGCHECK_SOURCE_DIR
                                                              ,
                              fs::path(EVGCHECK_SOURCE_DIR) / "fuzz" / "targets" / (target + ".dict")
#endif
         }) {
        if (dict.empty() && fs::is_regular_file(p)) dict = p.string();
    }

    std::cerr << "evgcheck fuzz: " << display(fuzzer) << ", " << jobs << (jobs == 1 ? " job" : " jobs")
              << ", " << *time << " s; corpus " << display(corpus) << ", out " << display(out) << "\n";
    const auto start = Clock::now();
    const auto end =
        start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(*time));
    auto seconds_since_start = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    Totals totals;
    std::atomic<uint64_t> run_counter{0};

    std::atomic<int> running{jobs};  // workers still running: the progress line stops when none is
    auto worker = [&](int id) {
        struct Done {
            std::atomic<int>& n;
            ~Done() { --n; }
        } done{running};
        while (true) {
            const double left = std::chrono::duration<double>(end - Clock::now()).count();
            if (left < 1) return;
            const uint64_t run = run_counter++;
            std::vector<std::string> a = {
                fmt::format("-max_total_time={}", std::lround(left)),
                fmt::format("-timeout={}", timeout),
                "-rss_limit_mb=2560",
                "-print_final_stats=1",
                fmt::format("-seed={}", 1000 + run),
                fmt::format("-artifact_prefix={}/", (out / "artifacts").string()),
            };
            a.insert(a.end(), options.flags.begin(), options.flags.end());
            if (!dict.empty()) a.push_back("-dict=" + dict);
            a.push_back(corpus.string());
            std::vector<std::string> tail;  // from a finding's first line on
            std::string artifact;
            evg::process::ProcessResult r;
            try {
                r = evg::process::run_process(
                    fuzzer, a, {}, end + std::chrono::seconds(timeout + 30), [&](const std::string& line) {
                        if (const auto s = parse_status_line(line)) {
                            std::lock_guard lock(totals.mu);
                            totals.latest[id] = *s;
                            totals.cov = std::max(totals.cov, s->cov);
                            totals.features = std::max(totals.features, s->features);
                            totals.corpus = std::max(totals.corpus, s->corpus);
                            return;
                        }
                        if (!tail.empty() || starts_finding(line)) {
                            if (tail.size() < 400) tail.push_back(line);
                        }
                        if (const std::string p = artifact_path(line); !p.empty()) {
                            artifact = p;
                        }
                    });
            } catch (
                const std::exception& e) {  // not runnable here (posix_spawn failed): said after the join
                std::lock_guard lock(totals.mu);
                if (totals.cannot_start.empty()) totals.cannot_start = e.what();
                return;
            }
            std::lock_guard lock(totals.mu);
            totals.finished_execs += totals.latest[id].execs;
            totals.latest.erase(id);
            const std::string sig = finding_signature(tail);
            if (!sig.empty()) {
                Finding& f = totals.findings[sig];
                if (f.count++ == 0) {
                    f.signature = sig;
                    f.hash = signature_hash(sig);
                    f.report = tail;
                    f.artifact = artifact;
                    f.first_seen = seconds_since_start();
                }
                totals.set_aside += set_aside(artifact, corpus, out / "set-aside");
            } else if (r.exit_code != 0 && !r.timed_out) {
                totals.unsigned_ends.push_back(
                    fmt::format("worker {} ended with exit code {} (signal {})", id, r.exit_code, r.signal));
                if (r.exit_code < 0 || totals.unsigned_ends.size() > 3)
                    return;  // not a finding: stop retrying
            }
        }
    };
    std::vector<std::thread> workers;
    workers.reserve(static_cast<size_t>(jobs));
    for (int i = 0; i < jobs; ++i) workers.emplace_back(worker, i);
    const bool tty = ::isatty(2);
    std::thread progress([&] {
        double last_print = 0;
        while (Clock::now() < end && running > 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
            const double now = seconds_since_start();
            std::lock_guard lock(totals.mu);
            if (tty) {
                std::cerr << "\r" << progress_line(totals, now, *time) << "   " << std::flush;
            } else if (now - last_print >= 10) {
                std::cerr << progress_line(totals, now, *time) << "\n";
                last_print = now;
            }
        }
    });
    for (std::thread& t : workers) t.join();
    progress.join();
    if (!totals.cannot_start.empty())
        throw UsageError(
            fmt::format("evgcheck fuzz: {}: is it a libFuzzer binary built on this machine (cmake "
                        "--preset fuzz && cmake --build build/fuzz)?",
                        totals.cannot_start));
    const double elapsed = seconds_since_start();
    {
        std::lock_guard lock(totals.mu);
        std::cerr << (tty ? "\r" : "") << progress_line(totals, elapsed, *time) << "\n";
    }

    // Minimise and save each finding.
    const fs::path replay = fs::path(self_dir()) / ".." / "fuzz" / ("fuzz_" + target + "_replay");
    const bool replay_exists = fs::exists(replay);
    const std::string replay_cmd = absolute_path(replay);
    evg::reports::FuzzSession session;
    for (auto& [sig, f] : totals.findings) {
        const fs::path dir = out / "findings" / f.hash;
        fs::create_directories(dir, ec);
        const fs::path input = dir / "input";
        bool minimised = false;
        if (!f.artifact.empty() && fs::exists(f.artifact)) {
            fs::copy_file(f.artifact, input, fs::copy_options::overwrite_existing, ec);
            const fs::path candidate = dir / "input.min";
            evg::process::run_process(
                fuzzer,
                {"-minimize_crash=1", fmt::format("-max_total_time={}", static_cast<long>(minimize_time)),
                 fmt::format("-timeout={}", timeout), "-exact_artifact_path=" + candidate.string(),
                 f.artifact},
                {}, Clock::now() + std::chrono::seconds(static_cast<long>(minimize_time) + timeout + 30));
            if (fs::exists(candidate) && fs::file_size(candidate) < fs::file_size(input)) {
                // Keep the smaller input only when it still gives the same finding.
                std::vector<std::string> lines;
                bool in_finding = false;
                evg::process::run_process(fuzzer, {fmt::format("-timeout={}", timeout), candidate.string()},
                                          {}, Clock::now() + std::chrono::seconds(timeout + 30),
                                          [&](const std::string& line) {
                                              if (in_finding || starts_finding(line)) {
                                                  in_finding = true;
                                                  lines.push_back(line);
                                              }
                                          });
                if (finding_signature(lines) == sig) {
                    fs::rename(candidate, input, ec);
                    minimised = !ec;
                }
            }
            fs::remove(candidate, ec);
        }
        // Invariants and exceptions replay in the plain replay program; memory errors, undefined behaviour,
        // leaks and timeouts need the sanitizers and libFuzzer's watchdog of the fuzz binary.
        const bool needs_fuzz_binary = !replay_exists || needs_sanitizer(sig);
        const std::string command =
            needs_fuzz_binary
                ? fmt::format("{} -timeout={} {}", absolute_path(fuzzer), timeout, absolute_path(input))
                : replay_cmd + " " + absolute_path(input);
        std::ofstream(dir / "signature.txt") << sig << "\n";
        std::ofstream(dir / "replay.txt") << command << "\n";
        {
            std::ofstream rep(dir / "report.txt");
            for (const std::string& l : f.report) rep << l << "\n";
        }
        const uintmax_t size = fs::exists(input) ? fs::file_size(input) : 0;
        std::cerr << "finding " << f.hash << " (" << f.count << "x, " << size << " B"
                  << (minimised ? ", minimised" : "") << "): " << sig << "\n  replay: " << command << "\n";
        session.findings.push_back({.signature = sig,
                                    .hash = f.hash,
                                    .count = f.count,
                                    .first_seen_s = f.first_seen,
                                    .input = display(input),
                                    .input_bytes = size,
                                    .minimised = minimised,
                                    .replay = command});
    }

    // Pattern coverage, for targets that write it (EVG_FUZZ_PATTERNS): each pattern, how many corpus inputs
    // reach it, and how many findings' inputs reach it with a disagreement.
    std::map<std::string, evg::fuzz::PatternCount> patterns;
    {
        const fs::path table = out / "patterns.tsv";
        auto read_table = [&](const std::vector<std::string>& args, bool findings) {
            fs::remove(table, ec);
            evg::process::run_process(fuzzer, args, {{"EVG_FUZZ_PATTERNS", table.string()}},
                                      Clock::now() + std::chrono::seconds(600 + timeout));
            std::ifstream in(table);
            const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            for (const auto& [name, c] : evg::fuzz::read_pattern_table(text)) {
                evg::fuzz::PatternCount& p = patterns[name];
                if (findings)
                    p.disagreements += c.disagreements;
                else
                    p.inputs += c.inputs;
            }
        };
        read_table({"-runs=0", fmt::format("-timeout={}", timeout), corpus.string()}, false);
        for (const auto& [sig, f] : totals.findings) {
            const fs::path input = out / "findings" / f.hash / "input";
            if (fs::exists(input)) read_table({fmt::format("-timeout={}", timeout), input.string()}, true);
        }
        fs::remove(table, ec);
    }
    for (const auto& [name, c] : patterns)
        session.patterns.push_back({.pattern = name, .inputs = c.inputs, .disagreements = c.disagreements});

    const uint64_t execs = totals.finished_execs;
    session.target = target;
    session.fuzzer = display(fuzzer);
    session.seconds = elapsed;
    session.jobs = jobs;
    session.execs = execs;
    session.coverage = totals.cov;
    session.features = totals.features;
    session.corpus = totals.corpus;
    session.corpus_dir = display(corpus);
    session.worker_errors = totals.unsigned_ends;
    std::ofstream(out / "report.json") << evg::reports::fuzz_session_json(session);
    std::ofstream(out / "report.md") << evg::reports::fuzz_session_markdown(session);
    if (!patterns.empty()) std::cerr << "pattern coverage: " << patterns.size() << " patterns (report.md)\n";
    if (totals.set_aside > 0)
        std::cerr << "set aside: " << totals.set_aside
                  << " corpus input(s) that ended a run, so that the next went on ("
                  << display(out / "set-aside") << ")\n";
    std::cerr << "report: " << display(out / "report.md") << ", " << display(out / "report.json") << "\n";
    if (!totals.unsigned_ends.empty() && execs == 0) {
        throw UsageError("evgcheck fuzz: " + display(fuzzer) +
                         " did not run: " + totals.unsigned_ends.front());
    }
    return totals.findings.empty() ? kExitOk : kExitFailed;
}

}  // namespace evgcheck

#else  // built without reports/ (EVG_SKIP_DIRS): nothing would write the session's report

namespace evgcheck {

int fuzz_command(std::span<const char* const>) {
    throw UsageError(
        "evgcheck fuzz: this evgcheck was built without reports/, which writes the session report");
}

}  // namespace evgcheck
#endif
