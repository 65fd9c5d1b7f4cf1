// evgcheck sync-table: the SYNC mutation table (fuzz/mutation/README.md). Every mutation point x operator of
// the seed examples, N random graphs of the property generators (both chips, both workspace paths) and the
// seed kernels, classified against the independent schedule explorer; prints the table per operator x node
// kind and the totals, writes sync_table.md and sync_table.json in --out. Exit 0 when nothing is missed,
// falsely alarmed or divergent, 1 otherwise, 2 for bad options, 3 when the time budget stopped the run.
#include <array>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>

#include "args.hpp"
#include "commands.hpp"

#ifdef EVGCHECK_HAS_SYNC_TABLE
#include "evg/fuzz/sync_table.hpp"
#include "evg/reports/sync_table.hpp"
#endif

namespace evgcheck {

namespace {

constexpr std::array kSyncTableOptions = {
    OptionSpec{"graphs", "N",
               "random graphs from the property generators (default 200), each on every arch "
               "and workspace path"},
    OptionSpec{"seed", "S", "seed of the random graphs (default 1)"},
    OptionSpec{"arch", "NAME", "only this arch (AtlasA2 or Ascend950; default both)"},
    OptionSpec{"out", "DIR", "write sync_table.md and sync_table.json here (default out/sync-table)"},
    OptionSpec{"small", "", "small shapes: the examples on one tile, random graphs on one tile and one core"},
    OptionSpec{"examples", "N", "at most N seed-example runs (default all)"},
    OptionSpec{"no-kernels", "", "leave out the seed kernels"},
    OptionSpec{"adversarial", "N", "adversarial schedules per harmless mutation (default 3)"},
    OptionSpec{"shard", "K/N",
               "run the K-th of N equal shares of the subjects (every N-th, from the K-th), so N processes "
               "make one table; add them up with --merge"},
    OptionSpec{"merge", "",
               "read the sync_table.json files given as operands (shards, or one arch each), add them up and "
               "write the one table to --out; runs nothing"},
    OptionSpec{"time-budget", "SECONDS",
               "stop classifying after this long and write the partial table (exit 3; default none)"},
    OptionSpec{"help", "", "print this help"},
};

constexpr const char* kSyncTableUsage =
    "Usage: evgcheck sync-table [options]\n"
    "\n"
    "The SYNC mutation table: every mutation point x operator (drop, duplicate, re-number, re-direct or "
    "move\n"
    "a SetFlag / WaitFlag, drop or insert a barrier, cross-core flags) of the seed examples, random graphs "
    "on\n"
    "both chips and workspace paths, and the seed kernels, each mutated run classified against the "
    "independent\n"
    "schedule explorer: caught by a checker (which), reordered (race-free, but a read takes other writes\n"
    "than unmutated, shown by the outputs or the uninit checker), output-only, proven harmless, missed,\n"
    "false alarm, divergent, undecided, unapplied. Prints the table per operator x node kind and the "
    "totals;\n"
    "`evgcheck conformance "
    "--sync-table OUT/sync_table.json` adds it to the conformance report.\n"
    "Exit code: 0 nothing missed, falsely alarmed or divergent; 1 otherwise; 2 bad options; 3 the time "
    "budget\n"
    "stopped the run.\n"
    "\n"
    "Shards: `evgcheck sync-table --shard 1/2 --out A & evgcheck sync-table --shard 2/2 --out B`, then\n"
    "`evgcheck sync-table --merge A/sync_table.json B/sync_table.json --out ALL` (same other options in "
    "every\n"
    "shard).\n"
    "\n";

#ifdef EVGCHECK_HAS_SYNC_TABLE
// "K/N" with 1 <= K <= N.
void opt_shard(const std::string& text, evg::fuzz::TableOptions& opt) {
    const size_t slash = text.find('/');
    int k = 0, n = 0;
    try {
        if (slash == std::string::npos) throw std::invalid_argument("no slash");
        size_t used_k = 0, used_n = 0;
        k = std::stoi(text.substr(0, slash), &used_k);
        n = std::stoi(text.substr(slash + 1), &used_n);
        if (used_k != slash || used_n != text.size() - slash - 1) throw std::invalid_argument("trailing");
    } catch (const std::exception&) {
        throw UsageError(
            fmt::format("evgcheck sync-table: --shard: expected K/N (e.g. 1/2), got '{}'", text));
    }
    if (n < 1 || n > 4096 || k < 1 || k > n)
        throw UsageError(fmt::format(
            "evgcheck sync-table: --shard: {} is not a shard: K/N needs 1 <= K <= N <= 4096", text));
    opt.shard = k - 1;
    opt.shards = n;
}

int write_table(const evg::reports::SyncTableData& t, const std::filesystem::path& out) {
    std::filesystem::create_directories(out);
    const std::filesystem::path md = out / "sync_table.md", js = out / "sync_table.json";
    std::ofstream(md) << evg::reports::sync_table_markdown(t);
    std::ofstream(js) << evg::reports::sync_table_json(t);
    std::cout << evg::reports::sync_table_text(t) << "\nreport: " << md.string() << " " << js.string() << "\n"
              << evg::reports::sync_table_summary(t) << "\n";
    if (evg::reports::sync_table_fails(t)) return kExitFailed;
    return t.complete ? kExitOk : kExitInternal;
}

int merge_tables(const Args& args, const std::filesystem::path& out) {
    for (const char* o :
         {"shard", "graphs", "seed", "arch", "small", "examples", "no-kernels", "adversarial", "time-budget"})
        if (args.has(o))
            throw UsageError(fmt::format(
                "evgcheck sync-table: --{} does not go with --merge (the tables say how they were run)", o));
    if (args.positional().size() < 2)
        throw UsageError("evgcheck sync-table: --merge needs two or more sync_table.json files");
    check_output_dir(out.string(), "out", "sync-table");
    std::vector<evg::reports::SyncTableData> parts;
    for (const std::string& f : args.positional()) {
        std::ifstream in(f);
        if (!in) throw UsageError(fmt::format("evgcheck sync-table: --merge: cannot read '{}'", f));
        std::stringstream text;
        text << in.rdbuf();
        try {
            parts.push_back(evg::reports::parse_sync_table_json(text.str()));
        } catch (const std::runtime_error& e) {
            throw UsageError(fmt::format("evgcheck sync-table: --merge: {}: {}", f, e.what()));
        }
    }
    evg::reports::SyncTableData t;
    try {
        t = evg::reports::merge_sync_tables(parts);
    } catch (const std::runtime_error& e) {
        throw UsageError(fmt::format("evgcheck sync-table: --merge: {}", e.what()));
    }
    return write_table(t, out);
}
#endif

}  // namespace

int sync_table_command(std::span<const char* const> argv) {
    const Args args = Args::parse(argv, kSyncTableOptions, "sync-table", 4096);
    if (args.has("help")) {
        std::cout << kSyncTableUsage << options_help(kSyncTableOptions);
        return kExitOk;
    }
    if (!args.has("merge") && !args.positional().empty())
        throw UsageError(
            fmt::format("evgcheck sync-table: unexpected operand '{}' (only --merge takes files)",
                        args.positional().front()));
#ifndef EVGCHECK_HAS_SYNC_TABLE
    std::cerr
        << "evgcheck sync-table: this build has no sync mutation library (fuzz/mutation was not built)\n";
    return kExitInternal;
#else
    const std::filesystem::path out = args.get("out").value_or("out/sync-table");
    if (args.has("merge")) return merge_tables(args, out);
    evg::fuzz::TableOptions opt;
    opt.graphs = static_cast<int>(args.integer("graphs", 0, 100000).value_or(200));
    opt.seed = static_cast<uint64_t>(args.integer("seed", 0, (1LL << 62)).value_or(1));
    if (const auto a = args.get("arch")) {
        const std::optional<std::string> arch = match_choice(*a, kArchNames);
        if (!arch) {
            std::string msg = "evgcheck sync-table: option --arch: unknown arch '" + *a + "'";
            if (const std::string near = closest(*a, kArchNames); !near.empty())
                msg += "; did you mean '" + near + "'?";
            throw UsageError(msg + " (AtlasA2 or Ascend950)");
        }
        opt.archs = {*arch == "AtlasA2" ? evg::hw::ArchId::AtlasA2 : evg::hw::ArchId::Ascend950};
    }
    opt.small = args.has("small");
    opt.max_examples = static_cast<int>(args.integer("examples", 0, 100000).value_or(-1));
    opt.kernels = !args.has("no-kernels");
    opt.adversarial = static_cast<int>(args.integer("adversarial", 0, 1000).value_or(3));
    opt.time_budget = args.seconds("time-budget", 7 * 86400).value_or(0);
    if (const auto sh = args.get("shard")) opt_shard(*sh, opt);
    check_output_dir(out.string(), "out", "sync-table");
    opt.command = "evgcheck sync-table";
    for (const char* a : argv) opt.command += std::string(" ") + a;

    const bool tty = ::isatty(2) != 0;
    opt.progress = [&](int done, int total, const evg::reports::SyncTableData& t) {
        const evg::reports::SyncTableRow s = evg::reports::table_totals(t);
        const std::string line = fmt::format(
            "{}/{} runs, {} mutations: {} caught, {} reordered, {} output-only, {} harmless, {} missed, {} "
            "false alarms, {} divergent, {:.0f} s",
            done, total, s.points, s.count(evg::reports::SyncVerdict::caught),
            s.count(evg::reports::SyncVerdict::reordered), s.count(evg::reports::SyncVerdict::output_only),
            s.count(evg::reports::SyncVerdict::harmless), s.count(evg::reports::SyncVerdict::missed),
            s.count(evg::reports::SyncVerdict::false_alarm), s.count(evg::reports::SyncVerdict::divergent),
            t.seconds);
        std::cerr << (tty ? "\r\033[K" + line : line + "\n") << std::flush;
    };
    const std::vector<evg::fuzz::Subject> subjects = evg::fuzz::table_subjects(opt);
    std::cerr << fmt::format("evgcheck sync-table: {} runs\n", subjects.size());
    const evg::reports::SyncTableData t = evg::fuzz::run_sync_table(subjects, opt);
    if (tty) std::cerr << "\n";

    return write_table(t, out);
#endif
}

}  // namespace evgcheck
