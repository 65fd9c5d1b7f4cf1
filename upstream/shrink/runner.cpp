// evg_upstream_runner: one instance of a library of upstream corpus instances (corpus_abi.hpp), compiled
// against a Catlass checkout and loaded here with dlopen, run and judged as the corpus test judges it
// (corpus_check.hpp: the one judge, the findings of the known-findings file taken out, evgcheck's copy bit
// for bit beside it). `evgcheck check --catlass-root` starts it once per instance and candidate, so that a
// candidate that crashes or hangs ends this process, not the command. Its command line and its verdict file:
// runner_protocol.hpp.
#include <fmt/format.h>

#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>

#include "corpus_abi.hpp"
#include "corpus_check.hpp"
#include "corpus_load.hpp"
#include "evg/props/regression.hpp"
#include "evg/props/runner.hpp"
#include "evg/verify/known_findings.hpp"
#include "runner_protocol.hpp"

namespace {

using namespace evg;
using namespace evg::upstream::corpus;
namespace runner = evg::upstream::runner;

// A failure's sentence without rapidcheck's lead-in: the file and line of the RC_ macro and its expression.
std::string plain(const std::string& message) {
    static const std::regex lead(R"(^[^\n]*:\d+:\n[^\n]*\n\n)");
    return std::regex_replace(message, lead, "", std::regex_constants::format_first_only);
}

int usage(const std::string& why) {
    std::cerr << "evg_upstream_runner: " << why << "\n" << runner::kUsage;
    return runner::kExitUnusable;
}

// A library or case the runner cannot use (its command line was right).
int unusable(const std::string& why) {
    std::cerr << "evg_upstream_runner: " << why << "\n";
    return runner::kExitUnusable;
}

// The compiler that built the library's kernel code, written with every verdict.
std::string g_compiler;

int write_verdict(const std::string& path, runner::Verdict v) {
    v.compiler = g_compiler;
    std::ofstream out(path, std::ios::binary);
    out << runner::verdict_text(v);
    if (!out) throw std::runtime_error("cannot write " + path);
    return v.pass ? runner::kExitPass : runner::kExitFail;
}

int run(int argc, char** argv) {
    const std::variant<runner::Request, std::string> parsed =
        runner::parse_arguments(std::span<const char* const>(argv + 1, static_cast<size_t>(argc - 1)));
    if (const std::string* why = std::get_if<std::string>(&parsed)) return usage(*why);
    const runner::Request& rq = std::get<runner::Request>(parsed);
    const std::variant<CorpusLibrary, CorpusLoadError> loaded = load_corpus_library(rq.library);
    if (const CorpusLoadError* e = std::get_if<CorpusLoadError>(&loaded)) {
        std::cerr << "evg_upstream_runner: " << e->why << "\n";
        return e->stale ? runner::kExitStale : runner::kExitUnusable;
    }
    const CorpusLibrary& library = std::get<CorpusLibrary>(loaded);
    g_compiler = library.compiler.description;
    const Instance* instance = nullptr;
    for (const Instance& i : library.instances)
        if (i.index == rq.index) instance = &i;
    if (!instance) return unusable(fmt::format("{} has no instance {}", rq.library, rq.index));

    verify::KnownFindings known;
    if (!rq.known.empty()) known = verify::KnownFindings::read(rq.known);
    // Per entry of `known`, the cases whose run it excused a finding of (counted when the case passed).
    std::map<const verify::KnownFinding*, int> excused;
    int excused_cases = 0;
    std::map<std::string, int> not_compared;  // output -> passed cases its values were not compared in
    const props::Property property = [&](const props::Case& c) {
        const std::vector<const verify::KnownFinding*> entries =
            upstream_matches_oracle_and_evgcheck(*instance, c, known, rq.case_limit);
        for (const verify::KnownFinding* k : entries) ++excused[k];
        excused_cases += entries.empty() ? 0 : 1;
        for (const auto& [output, why] : race_decided_outputs(c.problem, entries)) ++not_compared[output];
    };
    const auto passed = [&](int cases) {
        runner::Verdict v = runner::passed(cases);
        for (const auto& [k, n] : excused)
            v.excused.emplace_back(k->note.empty() ? k->spelling : k->spelling + "  # " + k->note, n);
        v.excused_cases = excused_cases;
        v.not_compared.assign(not_compared.begin(), not_compared.end());
        return v;
    };
    const props::Case base = props::case_from_text(instance->text);
    if (rq.one_case) {
        std::ifstream in(rq.case_file, std::ios::binary);
        if (!in) return unusable(fmt::format("cannot read the case file {}", rq.case_file));
        std::stringstream text;
        text << in.rdbuf();
        const props::Case c = props::case_from_text(text.str());
        if (!(c.problem.graph == base.problem.graph))
            return unusable(
                fmt::format("the case in {} is not a case of instance {}'s graph", rq.case_file, rq.index));
        const std::optional<props::Failure> failure = props::failure_of(property, c);
        if (!failure) return write_verdict(rq.out, passed(1));
        return write_verdict(rq.out, runner::failed(failure->tag, props::to_text(c, "UpstreamCheck/case"),
                                                    plain(failure->message)));
    }
    props::RunConfig cfg;
    cfg.cases = rq.cases;
    cfg.seed = rq.seed;
    cfg.jobs = 1;
    cfg.case_source = runtime_cases(base);
    cfg.dialect = graph::Implementation::upstream;
    cfg.replay_binary = "evgcheck";  // the command prints its own replay line
    const props::Outcome out =
        props::check_property(fmt::format("UpstreamCheck/instance{}", rq.index), property, cfg);
    if (out.ok) return write_verdict(rq.out, passed(out.passed));
    return write_verdict(
        rq.out, runner::failed(out.tag, out.minimal ? props::to_text(*out.minimal, "UpstreamCheck/case") : "",
                               plain(out.reason), out.report));
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "evg_upstream_runner: " << e.what() << "\n";
        return runner::kExitUnusable;
    }
}
