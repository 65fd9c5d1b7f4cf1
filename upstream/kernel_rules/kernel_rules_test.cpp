// The legality table of kernel configurations (graph::kernel_rules, lib/graph/src/kernel_config.cpp) against
// a checkout: for every rule the table says upstream asserts at compile time, the rule's example
// configuration (which breaks that rule and no other) is compiled against the checkout as `evgcheck check
// --catlass-root` compiles its graphs (one library of one corpus instance, the engine's LibraryCache), and
// the compile must fail with that rule's static_assert message. A rule whose refusal is not there (upstream
// dropped or changed the assert, or the table states a rule upstream does not have) fails here, naming the
// rule.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <system_error>

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

TEST(UpstreamKernelRules, TheCheckoutRefusesEachAssertedRulesExample) {
    const fs::path work = fs::path(EVG_KERNEL_RULES_WORK);
    std::error_code ec;
    fs::create_directories(work, ec);
    ASSERT_FALSE(ec) << work;
    // Generous: a library of one instance compiles in seconds; the budget only bounds a hung compiler.
    check::LibraryCache cache(work, EVG_CATLASS_ROOT, 1800, std::chrono::steady_clock::time_point::max());
    int asserted = 0;
    for (const graph::KernelRule& r : graph::kernel_rules()) {
        if (!r.compile_time) continue;
        SCOPED_TRACE(r.id);
        ++asserted;
        const std::string message = asserted_message(r);
        ASSERT_FALSE(message.empty()) << "the rule's source quotes no static_assert message: " << r.source;
        props::Case c = props::case_from_text(kCase);
        r.example(c.problem);
        ASSERT_TRUE(graph::kernel_config_refusal(c.problem).has_value());
        const check::LibraryCache::Result lib =
            cache.build(corpus::library_source({c}, std::string("the kernel rule ") + r.id + "'s example"));
        EXPECT_FALSE(lib.library.has_value()) << "the checkout compiles a configuration the table refuses ("
                                              << graph::kernel_config_summary(c.problem.kernel) << ")";
        EXPECT_NE(lib.error.find(message), std::string::npos)
            << "the compile failed without the rule's static_assert \"" << message << "\":\n"
            << lib.error;
    }
    EXPECT_GE(asserted, 10) << "the table lost its compile-time rules";
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
