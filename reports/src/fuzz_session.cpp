#include "evg/reports/fuzz_session.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace evg::reports {

std::string fuzz_session_json(const FuzzSession& s) {
    nlohmann::json findings = nlohmann::json::array();
    for (const FuzzFinding& f : s.findings)
        findings.push_back({{"signature", f.signature},
                            {"hash", f.hash},
                            {"count", f.count},
                            {"first_seen_s", f.first_seen_s},
                            {"input", f.input},
                            {"input_bytes", f.input_bytes},
                            {"minimised", f.minimised},
                            {"replay", f.replay}});
    nlohmann::json patterns = nlohmann::json::array();
    for (const FuzzPattern& p : s.patterns)
        patterns.push_back(
            {{"pattern", p.pattern}, {"inputs", p.inputs}, {"disagreements", p.disagreements}});
    const nlohmann::json report = {{"target", s.target},     {"fuzzer", s.fuzzer},
                                   {"seconds", s.seconds},   {"jobs", s.jobs},
                                   {"execs", s.execs},       {"exec_per_s", s.exec_per_s()},
                                   {"coverage", s.coverage}, {"features", s.features},
                                   {"corpus", s.corpus},     {"corpus_dir", s.corpus_dir},
                                   {"findings", findings},   {"worker_errors", s.worker_errors},
                                   {"patterns", patterns}};
    return report.dump(2) + "\n";
}

std::string fuzz_session_markdown(const FuzzSession& s) {
    std::string md = fmt::format("# Fuzz session: {}\n\n", s.target);
    md += fmt::format(
        "{:.0f} s, {} job(s), {} executions ({:.0f} exec/s), coverage {} edges, {} features, corpus {} "
        "inputs "
        "({}).\n\n",
        s.seconds, s.jobs, s.execs, s.exec_per_s(), s.coverage, s.features, s.corpus, s.corpus_dir);
    if (s.findings.empty()) {
        md += "No finding.\n";
    } else {
        md += "| finding | signature | times | bytes | replay |\n|---|---|---|---|---|\n";
        for (const FuzzFinding& f : s.findings) {
            std::string sig;  // a '|' would end the table cell
            for (const char c : f.signature) sig += c == '|' ? std::string("\\|") : std::string(1, c);
            md += fmt::format("| `{}` | {} | {} | {} | `{}` |\n", f.hash, sig, f.count, f.input_bytes,
                              f.replay);
        }
    }
    if (!s.patterns.empty()) {
        md += fmt::format(
            "\n## Pattern coverage\n\n{} sync patterns reached by the corpus (inputs: corpus inputs that "
            "reach "
            "the pattern; disagreements: findings whose input reaches it).\n\n| pattern | inputs | "
            "disagreements "
            "|\n|---|---|---|\n",
            s.patterns.size());
        for (const FuzzPattern& p : s.patterns)
            md += fmt::format("| {} | {} | {} |\n", p.pattern, p.inputs, p.disagreements);
    }
    for (const std::string& e : s.worker_errors) md += fmt::format("\nWorker error: {}\n", e);
    return md;
}

}  // namespace evg::reports
