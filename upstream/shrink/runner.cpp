// evg_upstream_runner: one instance of a library of upstream corpus instances (corpus_abi.hpp), compiled
// against a Catlass checkout and loaded here with dlopen, run and judged as the corpus test judges it
// (corpus_check.hpp: the one judge, the findings of the known-findings file taken out, evgcheck's copy bit
// for bit beside it). `evgcheck check --catlass-root` starts it once per instance and candidate, so that a
// candidate that crashes or hangs ends this process, not the command.
//
//   evg_upstream_runner LIBRARY INDEX property CASES SEED OUT [KNOWN]
//       the instance's property over CASES random runtime cases (runtime_cases: m, n, k, cores, schedule,
//       data seed) from SEED, a failure shrunk over them
//   evg_upstream_runner LIBRARY INDEX case CASE_FILE OUT [KNOWN]
//       the property on the one case in CASE_FILE (the regression text, props/regression.hpp)
//
// OUT receives the verdict in sections, for the command to read:
//   == verdict ==  pass N / fail
//   == tag ==      the failure's tag (require.hpp): what the shrinker keeps
//   == case ==     the failing case (property: the shrunk one), as regression text
//   == message ==  the failed check's sentence
//   == report ==   the property runner's report (property mode)
// Exit 0 pass, 1 fail, 2 a library, instance or file that cannot be used (the sentence on stderr).
#include <dlfcn.h>
#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>

#include "corpus_abi.hpp"
#include "corpus_check.hpp"
#include "evg/props/regression.hpp"
#include "evg/props/runner.hpp"
#include "evg/verify/known_findings.hpp"

namespace {

using namespace evg;
using namespace evg::upstream::corpus;

template <class T>
std::optional<T> number(std::string_view text) {
    T out{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return out;
}

// A failure's sentence without rapidcheck's lead-in: the file and line of the RC_ macro and its expression.
std::string plain(const std::string& message) {
    static const std::regex lead(R"(^[^\n]*:\d+:\n[^\n]*\n\n)");
    return std::regex_replace(message, lead, "", std::regex_constants::format_first_only);
}

int usage(const std::string& why) {
    std::cerr << "evg_upstream_runner: " << why
              << "\nusage: evg_upstream_runner LIBRARY INDEX property CASES SEED OUT [KNOWN]\n"
                 "       evg_upstream_runner LIBRARY INDEX case CASE_FILE OUT [KNOWN]\n";
    return 2;
}

// The section naming the compiler that built the library's kernel code, written ahead of every verdict.
std::string g_compiler_section;

void write_out(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << g_compiler_section << text;
    if (!out) throw std::runtime_error("cannot write " + path);
}

std::string section(const std::string& name, const std::string& body) {
    return "== " + name + " ==\n" + body + (body.empty() || body.back() == '\n' ? "" : "\n");
}

int run(int argc, char** argv) {
    if (argc < 4) return usage("too few arguments");
    const std::string library = argv[1], mode = argv[3];
    // Arguments after the mode: case CASE_FILE OUT [KNOWN], property CASES SEED OUT [KNOWN].
    const int fixed = mode == "case" ? 6 : 7;
    if (mode != "case" && mode != "property") return usage(fmt::format("unknown mode '{}'", mode));
    if (argc != fixed && argc != fixed + 1) return usage("wrong number of arguments");
    const std::optional<int> index = number<int>(argv[2]);
    if (!index) return usage(fmt::format("INDEX '{}' is not a whole number", argv[2]));
    void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) return usage(fmt::format("cannot load {}: {}", library, ::dlerror()));
    using Entry = const Instance* (*)(std::size_t*);
    const auto entry = reinterpret_cast<Entry>(::dlsym(handle, "evg_upstream_corpus_instances"));
    if (!entry) return usage(fmt::format("{} is not a library of corpus instances", library));
    using CompilerEntry = KernelCompilerInfo (*)();
    if (const auto compiler =
            reinterpret_cast<CompilerEntry>(::dlsym(handle, "evg_upstream_corpus_kernel_compiler")))
        g_compiler_section = "== compiler ==\n" + std::string(compiler().description) + "\n";
    std::size_t count = 0;
    const Instance* all = entry(&count);
    const Instance* instance = nullptr;
    for (std::size_t i = 0; i < count; ++i)
        if (all[i].index == *index) instance = &all[i];
    if (!instance) return usage(fmt::format("{} has no instance {}", library, *index));

    verify::KnownFindings known;
    if (argc == fixed + 1) known = verify::KnownFindings::read(argv[fixed]);
    const props::Property property = [&](const props::Case& c) {
        upstream_matches_oracle_and_evgcheck(*instance, c, known);
    };
    const props::Case base = props::case_from_text(instance->text);
    if (mode == "case") {
        std::ifstream in(argv[4], std::ios::binary);
        if (!in) return usage(fmt::format("cannot read the case file {}", argv[4]));
        std::stringstream text;
        text << in.rdbuf();
        const props::Case c = props::case_from_text(text.str());
        if (!(c.problem.graph == base.problem.graph))
            return usage(fmt::format("the case in {} is not a case of instance {}'s graph", argv[4], *index));
        const std::optional<props::Failure> failure = props::failure_of(property, c);
        if (!failure) {
            write_out(argv[5], section("verdict", "pass 1"));
            return 0;
        }
        write_out(argv[5], section("verdict", "fail") + section("tag", failure->tag) +
                               section("case", props::to_text(c, "UpstreamCheck/case")) +
                               section("message", plain(failure->message)));
        return 1;
    }
    const std::optional<int> cases = number<int>(argv[4]);
    const std::optional<uint64_t> seed = number<uint64_t>(argv[5]);
    if (!cases || *cases < 1) return usage(fmt::format("CASES '{}' is not a positive whole number", argv[4]));
    if (!seed) return usage(fmt::format("SEED '{}' is not a whole number", argv[5]));
    props::RunConfig cfg;
    cfg.cases = *cases;
    cfg.seed = *seed;
    cfg.jobs = 1;
    cfg.case_source = runtime_cases(base);
    cfg.dialect = graph::Implementation::upstream;
    cfg.replay_binary = "evgcheck";  // the command prints its own replay line
    const props::Outcome out =
        props::check_property(fmt::format("UpstreamCheck/instance{}", *index), property, cfg);
    if (out.ok) {
        write_out(argv[6], section("verdict", fmt::format("pass {}", out.passed)));
        return 0;
    }
    write_out(argv[6],
              section("verdict", "fail") + section("tag", out.tag) +
                  section("case", out.minimal ? props::to_text(*out.minimal, "UpstreamCheck/case") : "") +
                  section("message", plain(out.reason)) + section("report", out.report));
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "evg_upstream_runner: " << e.what() << "\n";
        return 2;
    }
}
