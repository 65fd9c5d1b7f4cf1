// evgcheck sync-table: the SYNC mutation table (fuzz/mutation/README.md). Every mutation point x operator of
// the seed examples, N random graphs of the property generators (both chips, both workspace paths) and the
// seed kernels, classified against the independent schedule explorer; prints the table per operator x node
// kind and the totals, writes sync_table.md and sync_table.json in --out. Exit 0 when nothing is missed,
// falsely alarmed or divergent, 1 otherwise, 2 for bad options, 3 when the time budget stopped the run.
#include <array>
#include <filesystem>
#include <fstream>
#include <iostream>

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
    "schedule explorer: caught by a checker (which), output-only, proven harmless, missed, false alarm,\n"
    "divergent, unapplied. Prints the table per operator x node kind and the totals; `evgcheck conformance\n"
    "--sync-table OUT/sync_table.json` adds it to the conformance report.\n"
    "Exit code: 0 nothing missed, falsely alarmed or divergent; 1 otherwise; 2 bad options; 3 the time "
    "budget\n"
    "stopped the run.\n"
    "\n";

}  // namespace

int sync_table_command(std::span<const char* const> argv) {
    const Args args = Args::parse(argv, kSyncTableOptions, "sync-table", 0);
    if (args.has("help")) {
        std::cout << kSyncTableUsage << options_help(kSyncTableOptions);
        return kExitOk;
    }
#ifndef EVGCHECK_HAS_SYNC_TABLE
    std::cerr
        << "evgcheck sync-table: this build has no sync mutation library (fuzz/mutation was not built)\n";
    return kExitInternal;
#else
    evg::fuzz::TableOptions opt;
    opt.graphs = static_cast<int>(args.integer("graphs", 0, 100000).value_or(200));
    opt.seed = static_cast<uint64_t>(args.integer("seed", 0, (1LL << 62)).value_or(1));
    if (const auto a = args.get("arch")) {
        if (*a == "AtlasA2")
            opt.archs = {evg::hw::ArchId::AtlasA2};
        else if (*a == "Ascend950")
            opt.archs = {evg::hw::ArchId::Ascend950};
        else
            throw UsageError(
                fmt::format("evgcheck sync-table: --arch: unknown arch '{}' (archs: AtlasA2, "
                            "Ascend950)",
                            *a));
    }
    opt.small = args.has("small");
    opt.max_examples = static_cast<int>(args.integer("examples", 0, 100000).value_or(-1));
    opt.kernels = !args.has("no-kernels");
    opt.adversarial = static_cast<int>(args.integer("adversarial", 0, 1000).value_or(3));
    opt.time_budget = args.seconds("time-budget", 7 * 86400).value_or(0);
    const std::filesystem::path out = args.get("out").value_or("out/sync-table");
    check_output_dir(out.string(), "out", "sync-table");
    opt.command = "evgcheck sync-table";
    for (const char* a : argv) opt.command += std::string(" ") + a;

    const bool tty = ::isatty(2) != 0;
    opt.progress = [&](int done, int total, const evg::reports::SyncTableData& t) {
        const evg::reports::SyncTableRow s = evg::reports::table_totals(t);
        const std::string line = fmt::format(
            "{}/{} runs, {} mutations: {} caught, {} output-only, {} harmless, {} missed, {} false alarms, "
            "{} "
            "divergent, {:.0f} s",
            done, total, s.points, s.count(evg::reports::SyncVerdict::caught),
            s.count(evg::reports::SyncVerdict::output_only), s.count(evg::reports::SyncVerdict::harmless),
            s.count(evg::reports::SyncVerdict::missed), s.count(evg::reports::SyncVerdict::false_alarm),
            s.count(evg::reports::SyncVerdict::divergent), t.seconds);
        std::cerr << (tty ? "\r\033[K" + line : line + "\n") << std::flush;
    };
    const std::vector<evg::fuzz::Subject> subjects = evg::fuzz::table_subjects(opt);
    std::cerr << fmt::format("evgcheck sync-table: {} runs\n", subjects.size());
    const evg::reports::SyncTableData t = evg::fuzz::run_sync_table(subjects, opt);
    if (tty) std::cerr << "\n";

    std::filesystem::create_directories(out);
    const std::filesystem::path md = out / "sync_table.md", js = out / "sync_table.json";
    std::ofstream(md) << evg::reports::sync_table_markdown(t);
    std::ofstream(js) << evg::reports::sync_table_json(t);
    std::cout << evg::reports::sync_table_text(t) << "\nreport: " << md.string() << " " << js.string() << "\n"
              << evg::reports::sync_table_summary(t) << "\n";
    if (evg::reports::sync_table_fails(t)) return kExitFailed;
    return t.complete ? kExitOk : kExitInternal;
#endif
}

}  // namespace evgcheck
