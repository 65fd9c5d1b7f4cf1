// evgcheck report merge: the report of a sharded run (`evgcheck conformance --shard K/N`, `evgcheck check
// --catlass-root DIR --shard K/N`; docs/ci-matrix.md) from the reports its N shards wrote. The merged report
// is the one the unsharded run writes: the same cases or graphs in the same order, the same totals, matrix,
// coverage and sections; its wall time is the longest shard's.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "args.hpp"
#include "commands.hpp"
#include "load.hpp"

#ifdef EVGCHECK_HAS_CONFORMANCE
#include "evg/reports/report.hpp"
#endif
#ifdef EVGCHECK_HAS_UPSTREAM_CHECK
#include "check_report.hpp"
#endif

namespace evgcheck {

namespace {

namespace fs = std::filesystem;

constexpr std::array kReportOptions = {
    OptionSpec{"out", "DIR",
               "write the merged report here (conformance: report.html, report.md, report.json, junit.xml; "
               "check: check-report.json, junit.xml); default out/merged"},
    OptionSpec{"help", "", "print this help"},
};

constexpr const char* kReportUsage =
    "Usage: evgcheck report merge [--out DIR] SHARD...\n"
    "\n"
    "Merges the reports of the N shards of one run (`evgcheck conformance --shard K/N` or `evgcheck check\n"
    "--catlass-root DIR --shard K/N`) into the report of the whole run: the same cases or graphs, in the\n"
    "order of the unsharded run, with its totals and sections. SHARD is a shard's report folder (its --out "
    "or\n"
    "--report) or the report's JSON file. Every shard of the run must be given once; shards of another run,\n"
    "of another N or the same shard twice are refused, naming them.\n"
    "Exit code: as the unsharded run's: 0 everything passed, 1 a failure, 2 bad input, 3 a shard stopped\n"
    "early.\n"
    "\n";

// A shard's report: the JSON file, or the file of that name in a folder.
std::string read_shard(const std::string& operand) {
    fs::path path = operand;
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        if (fs::exists(path / "report.json"))
            path /= "report.json";
        else if (fs::exists(path / "check-report.json"))
            path /= "check-report.json";
        else
            throw InputError(fmt::format(
                "evgcheck report merge: '{}' holds no report.json (conformance) or check-report.json (check)",
                operand));
    }
    std::ifstream in(path);
    if (!in) throw InputError(fmt::format("evgcheck report merge: cannot read '{}'", path.string()));
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string kind_of(const std::string& text, const std::string& operand) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("kind") || !j.at("kind").is_string())
        throw InputError(fmt::format(
            "evgcheck report merge: '{}' is not a report of evgcheck conformance or check (no \"kind\")",
            operand));
    return j.at("kind").get<std::string>();
}

#ifdef EVGCHECK_HAS_CONFORMANCE
int merge_conformance(const std::vector<std::string>& texts, const fs::path& out) {
    namespace reports = evg::reports;
    std::vector<reports::ReportInput> shards;
    reports::ReportInput merged;
    try {
        for (const std::string& t : texts) shards.push_back(reports::read_report_json(t));
        merged = reports::merge_shards(std::move(shards));
    } catch (const std::runtime_error& e) {
        throw InputError(std::string("evgcheck report merge: ") + e.what());
    }
    const auto paths = reports::write_all(merged, out);
    std::cout << reports::text_matrix(reports::build_matrix(merged.results)) << "\n";
    if (merged.upstream) std::cout << reports::side_by_side_text(merged) << "\n";
    const reports::Totals t = reports::totals(merged.results);
    if (t.failed > 0) {
        std::cout << "failing cases (replay each alone):\n";
        for (const auto& r : merged.results)
            if (r.status == evg::conformance::Status::fail) std::cout << "  " << r.replay << "\n";
        std::cout << "\n";
    }
    std::cout << "report:";
    for (const auto& p : paths) std::cout << " " << p.string();
    std::cout << "\n";
    const std::vector<reports::AliveCell> alive = reports::proven_alive(merged);
    std::cout << reports::alive_summary(alive) << "\n" << reports::summary_line(merged) << "\n";
    if (t.failed > 0) return kExitFailed;
    for (const reports::AliveCell& c : alive)
        if (c.state == reports::Alive::not_proven) return kExitFailed;
    if (merged.hand_fused)
        for (const reports::HandFusedRow& r : *merged.hand_fused)
            if (!r.ok) return kExitFailed;
    return merged.partial.empty() ? kExitOk : kExitInternal;
}
#endif

#ifdef EVGCHECK_HAS_UPSTREAM_CHECK
int merge_check(const std::vector<std::string>& texts, const fs::path& out) {
    namespace check = evg::upstream::check;
    std::vector<check::CheckReport> shards;
    check::CheckReport merged;
    try {
        for (const std::string& t : texts) shards.push_back(check::read_check_report_json(t));
        merged = check::merge_check_shards(std::move(shards));
    } catch (const std::runtime_error& e) {
        throw InputError(std::string("evgcheck report merge: ") + e.what());
    }
    fs::create_directories(out);
    const auto write = [&](const char* name, const std::string& text) {
        std::ofstream f(out / name);
        f << text;
        if (!f)
            throw InputError(fmt::format("evgcheck report merge: cannot write '{}'", (out / name).string()));
    };
    write("check-report.json", check::check_report_json(merged));
    write("junit.xml", check::check_report_junit(merged));
    std::cout << fmt::format("{} on {}, {} graphs of seed {}\ncatlass: {}\n", merged.command, merged.root,
                             merged.drawn, merged.seed, merged.catlass);
    const int code = check::check_report_exit_code(merged);
    for (const check::CheckGraph& g : merged.results)
        if (g.pass)
            std::cout << fmt::format(
                "ok   graph {} ({}): {} cases{}{}\n", g.number, g.summary, g.cases,
                g.excused_cases ? fmt::format(", a known finding excused in {} of them", g.excused_cases)
                                : "",
                g.not_compared);
        else
            std::cout << g.failure;
    if (code == kExitOk) std::cout << check::check_report_ending(merged);
    if (!merged.stopped.empty()) std::cout << "stopped early: " << merged.stopped << "\n";
    std::cout << fmt::format("report: {} {}\n", (out / "check-report.json").string(),
                             (out / "junit.xml").string());
    return code;
}
#endif

}  // namespace

int report_command(std::span<const char* const> argv) {
    const Args args = Args::parse(argv, kReportOptions, "report", 100'000);
    if (args.has("help")) {
        std::cout << kReportUsage << options_help(kReportOptions);
        return kExitOk;
    }
    const std::vector<std::string>& operands = args.positional();
    if (operands.empty() || operands.front() != "merge")
        throw UsageError(operands.empty()
                             ? "evgcheck report: give a verb: evgcheck report merge [--out DIR] SHARD..."
                             : fmt::format("evgcheck report: unknown verb '{}' (the one verb is merge)",
                                           operands.front()));
    if (operands.size() < 2)
        throw UsageError("evgcheck report merge: give the shards' report folders (or JSON files)");
    const std::string out = args.get("out").value_or("out/merged");
    check_output_dir(out, "out", "report merge");
    std::vector<std::string> texts;
    std::string kind;
    for (size_t i = 1; i < operands.size(); ++i) {
        texts.push_back(read_shard(operands[i]));
        const std::string k = kind_of(texts.back(), operands[i]);
        if (!kind.empty() && k != kind)
            throw InputError(fmt::format("evgcheck report merge: '{}' is a {} report, '{}' a {} report",
                                         operands[1], kind, operands[i], k));
        kind = k;
    }
    if (kind == "conformance") {
#ifdef EVGCHECK_HAS_CONFORMANCE
        return merge_conformance(texts, out);
#else
        throw UsageError("evgcheck report merge: this evgcheck was built without the conformance report");
#endif
    }
    if (kind == "check") {
#ifdef EVGCHECK_HAS_UPSTREAM_CHECK
        return merge_check(texts, out);
#else
        throw UsageError(
            "evgcheck report merge: this evgcheck was built without upstream/ (check --catlass-root)");
#endif
    }
    throw InputError(fmt::format("evgcheck report merge: '{}' is a report of kind '{}', which is not merged",
                                 operands[1], kind));
}

}  // namespace evgcheck
