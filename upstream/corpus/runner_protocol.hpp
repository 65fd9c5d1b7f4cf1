// The contract between `evgcheck check --catlass-root` and evg_upstream_runner (upstream/shrink/runner.cpp):
// the runner's command line and the verdict file it writes, each written and read by the functions here and
// nowhere else, so that the two sides cannot drift apart.
//
//   evg_upstream_runner [--case-limit F] LIBRARY INDEX property CASES SEED OUT [KNOWN]
//       instance INDEX's property over CASES random runtime cases from SEED, a failure shrunk over them
//   evg_upstream_runner [--case-limit F] LIBRARY INDEX case CASE_FILE OUT [KNOWN]
//       the property on the one case in CASE_FILE (the regression text, props/regression.hpp)
//
// --case-limit F: a run of upstream's kernel may issue F times what evgcheck's copy issues for the same case
// (corpus_check.hpp, case_instruction_limit). OUT receives the verdict in sections "== name ==":
//   compiler  the compiler of the library's kernel code (acl/kernel_compiler.hpp)
//   verdict   "pass N" or "fail"
//   tag       the failure's tag (require.hpp): what the shrinker keeps
//   case      the failing case (property: the shrunk one), as regression text
//   message   the failed check's sentence
//   report    the property runner's report (property mode)
//   excused   (pass) per known-findings entry that excused a finding: "<cases>\t<entry>  # <note>", a line
//             each: how many of the passed cases had a finding it took out
//   excused-cases (pass) how many of the passed cases had any finding taken out
//   not-compared (pass) per output whose values were not compared with the oracle in some passed cases
//             (a documented race decided them: corpus_check.hpp, race_decided_outputs): "<cases>\t<output>"
// Exit 0 pass, 1 fail, 2 a library, instance, file or command line that cannot be used (the sentence on
// stderr).
#pragma once
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace evg::upstream::runner {

// kExitStale: the library's ABI stamp is not the runner's (corpus_load.hpp): it was built from other evgcheck
// headers, or before the stamp, and is not read; rebuilt, it runs.
inline constexpr int kExitPass = 0, kExitFail = 1, kExitUnusable = 2, kExitStale = 3;

// --case-limit's default.
inline constexpr double kDefaultCaseLimit = 64;

struct Request {
    std::string library;
    int index = 0;
    bool one_case = false;  // mode `case` (case_file), else `property` (cases, seed)
    int cases = 0;
    uint64_t seed = 0;
    std::string case_file;
    std::string out;
    std::string known;  // the known-findings file, "" for none
    double case_limit = kDefaultCaseLimit;
};

inline constexpr const char* kUsage =
    "usage: evg_upstream_runner [--case-limit F] LIBRARY INDEX property CASES SEED OUT [KNOWN]\n"
    "       evg_upstream_runner [--case-limit F] LIBRARY INDEX case CASE_FILE OUT [KNOWN]\n";

// The runner's arguments for `r` (without the program's name).
inline std::vector<std::string> arguments(const Request& r) {
    std::vector<std::string> a;
    if (r.case_limit != kDefaultCaseLimit) {
        char text[32];  // the shortest text that reads back as the same double
        const auto end = std::to_chars(text, text + sizeof text, r.case_limit).ptr;
        a.insert(a.end(), {"--case-limit", std::string(text, end)});
    }
    a.insert(a.end(), {r.library, std::to_string(r.index)});
    if (r.one_case)
        a.insert(a.end(), {"case", r.case_file});
    else
        a.insert(a.end(), {"property", std::to_string(r.cases), std::to_string(r.seed)});
    a.push_back(r.out);
    if (!r.known.empty()) a.push_back(r.known);
    return a;
}

namespace detail {
template <class T>
std::optional<T> number(std::string_view text) {
    T out{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return out;
}
}  // namespace detail

// The request of a command line (the arguments after the program's name), or the sentence saying why it is
// not one.
inline std::variant<Request, std::string> parse_arguments(std::span<const char* const> args) {
    Request r;
    size_t i = 0;
    if (args.size() >= 2 && std::string_view(args[0]) == "--case-limit") {
        const std::optional<double> f = detail::number<double>(args[1]);
        if (!f || !(*f >= 1))
            return "--case-limit '" + std::string(args[1]) + "' is not a number of at least 1";
        r.case_limit = *f;
        i = 2;
    }
    const std::span<const char* const> rest = args.subspan(i);
    if (rest.size() < 3) return std::string("too few arguments");
    r.library = rest[0];
    const std::string_view mode = rest[2];
    if (mode != "case" && mode != "property") return "unknown mode '" + std::string(mode) + "'";
    r.one_case = mode == "case";
    const size_t fixed = r.one_case ? 5 : 6;  // LIBRARY INDEX MODE, then CASE_FILE OUT or CASES SEED OUT
    if (rest.size() != fixed && rest.size() != fixed + 1) return std::string("wrong number of arguments");
    const std::optional<int> index = detail::number<int>(rest[1]);
    if (!index) return "INDEX '" + std::string(rest[1]) + "' is not a whole number";
    r.index = *index;
    if (r.one_case) {
        r.case_file = rest[3];
    } else {
        const std::optional<int> cases = detail::number<int>(rest[3]);
        const std::optional<uint64_t> seed = detail::number<uint64_t>(rest[4]);
        if (!cases || *cases < 1)
            return "CASES '" + std::string(rest[3]) + "' is not a positive whole number";
        if (!seed) return "SEED '" + std::string(rest[4]) + "' is not a whole number";
        r.cases = *cases;
        r.seed = *seed;
    }
    r.out = rest[fixed - 1];
    if (rest.size() == fixed + 1) r.known = rest[fixed];
    return r;
}

// The verdict file.
struct Verdict {
    bool pass = false;
    int passed = 0;  // cases passed (pass)
    // (pass) the known-findings entries that excused a finding, each with the passed cases it did so in; an
    // entry as "<spelling>  # <note>"
    std::vector<std::pair<std::string, int>> excused;
    int excused_cases = 0;  // (pass) the passed cases any entry excused a finding of
    // (pass) the outputs whose values were not compared, each with the passed cases in which they were not
    std::vector<std::pair<std::string, int>> not_compared;
    std::string tag, case_text, message, report;
    std::string compiler;
};

inline Verdict passed(int cases) {
    Verdict v;
    v.pass = true;
    v.passed = cases;
    return v;
}
inline Verdict failed(std::string tag, std::string case_text, std::string message, std::string report = {}) {
    Verdict v;
    v.tag = std::move(tag);
    v.case_text = std::move(case_text);
    v.message = std::move(message);
    v.report = std::move(report);
    return v;
}

namespace detail {
inline std::string section(const std::string& name, const std::string& body) {
    return "== " + name + " ==\n" + body + (body.empty() || body.back() == '\n' ? "" : "\n");
}
// A section's body ("== name ==" up to the next section), "" when there is none.
inline std::string section_of(const std::string& text, const std::string& name) {
    const std::string head = "== " + name + " ==\n";
    const size_t start = text.rfind(head, 0) == 0 ? 0 : text.find("\n" + head);
    if (start == std::string::npos) return {};
    const size_t body = start + (start == 0 ? 0 : 1) + head.size();
    const size_t end = text.find("\n== ", body == 0 ? 0 : body - 1);
    return text.substr(body, end == std::string::npos ? std::string::npos : end + 1 - body);
}
inline std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}
}  // namespace detail

namespace detail {
// "<cases>\t<name>" lines, and back.
inline std::string counted_lines(const std::vector<std::pair<std::string, int>>& counts) {
    std::string out;
    for (const auto& [name, cases] : counts) out += std::to_string(cases) + "\t" + name + "\n";
    return out;
}
inline std::vector<std::pair<std::string, int>> read_counted_lines(const std::string& text) {
    std::vector<std::pair<std::string, int>> out;
    for (size_t from = 0; from < text.size();) {
        const size_t end = std::min(text.find('\n', from), text.size());
        const std::string_view line = std::string_view(text).substr(from, end - from);
        from = end + 1;
        const size_t tab = line.find('\t');
        if (tab == std::string_view::npos) continue;
        if (const std::optional<int> cases = number<int>(line.substr(0, tab)))
            out.emplace_back(std::string(line.substr(tab + 1)), *cases);
    }
    return out;
}
}  // namespace detail

inline std::string verdict_text(const Verdict& v) {
    using detail::section;
    std::string out;
    if (!v.compiler.empty()) out += section("compiler", v.compiler);
    if (v.pass) {
        out += section("verdict", "pass " + std::to_string(v.passed));
        if (!v.excused.empty())
            out += section("excused", detail::counted_lines(v.excused)) +
                   section("excused-cases", std::to_string(v.excused_cases));
        if (!v.not_compared.empty()) out += section("not-compared", detail::counted_lines(v.not_compared));
        return out;
    }
    out += section("verdict", "fail") + section("tag", v.tag) + section("case", v.case_text) +
           section("message", v.message);
    if (!v.report.empty()) out += section("report", v.report);
    return out;
}

inline Verdict read_verdict(const std::string& text) {
    using detail::section_of;
    using detail::trimmed;
    Verdict v;
    const std::string verdict = trimmed(section_of(text, "verdict"));
    v.pass = verdict.rfind("pass ", 0) == 0;
    if (v.pass) v.passed = detail::number<int>(std::string_view(verdict).substr(5)).value_or(0);
    v.tag = trimmed(section_of(text, "tag"));
    v.case_text = section_of(text, "case");
    v.message = trimmed(section_of(text, "message"));
    v.report = section_of(text, "report");
    v.compiler = trimmed(section_of(text, "compiler"));
    v.excused_cases = detail::number<int>(trimmed(section_of(text, "excused-cases"))).value_or(0);
    v.excused = detail::read_counted_lines(section_of(text, "excused"));
    v.not_compared = detail::read_counted_lines(section_of(text, "not-compared"));
    return v;
}

}  // namespace evg::upstream::runner
