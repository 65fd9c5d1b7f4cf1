// The legality table of kernel configurations (graph::kernel_rules, lib/graph/src/kernel_config.cpp) against
// a checkout: for every rule the table says upstream asserts at compile time, the rule's example
// configuration (which breaks that rule and no other) is compiled against the checkout as `evgcheck check
// --catlass-root` compiles its graphs (a library of corpus instances, the engine's LibraryCache), and the
// compile must fail with that rule's static_assert message, in the instantiation of that rule's instance. A
// rule whose refusal is not there (upstream dropped or changed the assert, or the table states a rule
// upstream does not have) fails here, naming the rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "corpus_emit.hpp"
#include "evg/graph/kernel_config.hpp"
#include "evg/props/regression.hpp"
#include "library_cache.hpp"

namespace evg::upstream {
namespace {

namespace fs = std::filesystem;

// The table's base problem: Ascend950, the default configuration on the 32 x 64 x 64 tile, half A and B,
// float C, and the smallest graph (C stored as D).
constexpr const char* kCase =
    "# case data=exact data_seed=0 cores=1 sched=0\n"
    "problem arch=Ascend950 m=64 n=64 k=64 a=half b=half c=float cl=2048 tile=32x64x64\n"
    "output D : float[64, 64]\n"
    "%0 = AccLoad float\n"
    "%1 = AuxStore float D (%0)\n";

// The message of the rule's static_assert, as its source quotes it: `static_assert "<message>"`.
std::string asserted_message(const graph::KernelRule& r) {
    const std::string source = r.source;
    const std::string head = "static_assert \"";
    const size_t at = source.find(head);
    if (at == std::string::npos) return {};
    const size_t begin = at + head.size(), end = source.find('"', begin);
    return end == std::string::npos ? std::string() : source.substr(begin, end - begin);
}

// The instance whose function holds line `line` of `source` (library_source's text: instance i's function
// starts at the line "InstanceRun instance_<i>("), -1 before the first.
int instance_at_line(const std::string& source, int line) {
    static const std::regex start(R"(^InstanceRun instance_(\d+)\()");
    std::istringstream in(source);
    int at = 0, instance = -1;
    for (std::string text; std::getline(in, text) && ++at <= line;) {
        std::smatch m;
        if (std::regex_search(text, m, start)) instance = std::stoi(m[1]);
    }
    return instance;
}

// The instances, by line of `source`, whose instantiation asserted `message` in the compiler's `output`: each
// line of the output that holds the message is an error, and the chain that instantiated it names a line of
// instances.cpp. Clang names it in a note after the error ("instances.cpp:L:C: note: in instantiation of ...
// requested here"), GCC in the lines before it ("instances.cpp:L:C:   required from here"); the search stops
// at the next (Clang) or the previous (GCC) error.
std::vector<int> instances_asserting(const std::string& output, const std::string& message,
                                     const std::string& source) {
    static const std::regex clang_note(R"(instances\.cpp:(\d+):\d+: note: )");
    static const std::regex gcc_required(R"(instances\.cpp:(\d+):\d+:\s+required from)");
    std::vector<std::string> lines;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    const auto is_error = [&](std::size_t i) { return lines[i].find(": error: ") != std::string::npos; };
    std::vector<int> found;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!is_error(i) || lines[i].find(message) == std::string::npos) continue;
        std::smatch m;
        int line = -1;
        for (std::size_t j = i + 1; j < lines.size() && !is_error(j) && line < 0; ++j)
            if (std::regex_search(lines[j], m, clang_note)) line = std::stoi(m[1]);
        for (std::size_t j = i; j-- > 0 && !is_error(j) && line < 0;)
            if (std::regex_search(lines[j], m, gcc_required)) line = std::stoi(m[1]);
        if (line >= 0) found.push_back(instance_at_line(source, line));
    }
    return found;
}

TEST(UpstreamKernelRules, TheCheckoutRefusesEachAssertedRulesExample) {
    const fs::path work = fs::path(EVG_KERNEL_RULES_WORK);
    std::error_code ec;
    fs::create_directories(work, ec);
    ASSERT_FALSE(ec) << work;
    // Every example in one library, compiled once with no limit on the errors: each example fails on its own,
    // and a compile of each alone parsed upstream's headers once per rule (ten compiles, 27 CPU-s, against
    // one of 3). Generous: the budget only bounds a hung compiler.
    check::LibraryCache cache(work, EVG_CATLASS_ROOT, 1800, std::chrono::steady_clock::time_point::max());
    cache.report_every_error();
    std::vector<const graph::KernelRule*> rules;
    std::vector<props::Case> examples;
    for (const graph::KernelRule& r : graph::kernel_rules()) {
        if (!r.compile_time) continue;
        SCOPED_TRACE(r.id);
        ASSERT_FALSE(asserted_message(r).empty())
            << "the rule's source quotes no static_assert message: " << r.source;
        props::Case c = props::case_from_text(kCase);
        r.example(c.problem);
        ASSERT_TRUE(graph::kernel_config_refusal(c.problem).has_value());
        rules.push_back(&r);
        examples.push_back(c);
    }
    EXPECT_GE(rules.size(), 10u) << "the table lost its compile-time rules";
    const std::string source = corpus::library_source(examples, "the kernel rules' examples");
    const check::LibraryCache::Result lib = cache.build(source);
    ASSERT_FALSE(lib.library.has_value()) << "the checkout compiles every configuration the table refuses";
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const graph::KernelRule& r = *rules[i];
        const std::string message = asserted_message(r);
        const std::vector<int> asserting = instances_asserting(lib.output, message, source);
        EXPECT_NE(std::find(asserting.begin(), asserting.end(), static_cast<int>(i)), asserting.end())
            << "the kernel rule " << r.id << ": the checkout does not refuse its example ("
            << graph::kernel_config_summary(examples[i].problem.kernel) << ", instance " << i
            << ") with the rule's static_assert \"" << message << "\"; the compiler said:\n"
            << lib.error;
    }
}

// The control: the base configuration itself compiles, so that a refusal above is the rule's, not a build
// that fails for everything.
TEST(UpstreamKernelRules, TheBaseConfigurationCompiles) {
    check::LibraryCache cache(fs::path(EVG_KERNEL_RULES_WORK), EVG_CATLASS_ROOT, 1800,
                              std::chrono::steady_clock::time_point::max());
    const check::LibraryCache::Result lib =
        cache.build(corpus::library_source({props::case_from_text(kCase)}, "the kernel rules' base"));
    EXPECT_TRUE(lib.library.has_value()) << lib.error;
}

}  // namespace
}  // namespace evg::upstream
