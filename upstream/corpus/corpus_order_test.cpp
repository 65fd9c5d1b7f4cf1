// The upstream corpus under both orders of evaluation (label `upstream`): the same generated instances built
// by the default kernel compiler (linked) and by the other one (EVG_UPSTREAM_CORPUS_TWIN, loaded with dlopen:
// each library holds its own copy of the model, and both export the same names). C++ leaves the order of a
// call's arguments unspecified; upstream's EVG builds a node's callbacks as the arguments of one constructor
// call, each carving its UB buffer from one offset, so the two builds place a graph's buffers differently
// (docs/hardware-model.md §18). Every instance's cases run on both builds:
//   - the outputs are the same, byte for byte (the numbers do not depend on where the buffers lie);
//   - a finding one order shows and the other does not is printed with acl::order_dependent_label;
//   - docs/upstream-findings.md §5: `ub_last_tile_add` (D = C + X) overlaps its Add's operands under GCC's
//   order
//     only, `ub_last_tile_relu` and `ub_last_tile_cast` (a unary node directly over AccLoad) under both.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "acl/kernel_compiler.hpp"
#include "acl/kernel_order.hpp"
#include "corpus_check.hpp"
#include "corpus_load.hpp"
#include "evg/props/regression.hpp"
#include "evg/verify/data.hpp"

namespace evg::upstream::corpus {
namespace {

// The other build, loaded once for the whole test binary (never closed: its instances' code stays mapped).
struct Twin {
    std::span<const Instance> instances;
    KernelCompilerInfo compiler{"", false};
    std::string error;
};
const Twin& twin() {
    static const Twin t = [] {
        Twin out;
        const std::variant<CorpusLibrary, CorpusLoadError> loaded =
            load_corpus_library(EVG_UPSTREAM_CORPUS_TWIN);
        if (const CorpusLoadError* e = std::get_if<CorpusLoadError>(&loaded)) {
            out.error = e->why;
            return out;
        }
        out.instances = std::get<CorpusLibrary>(loaded).instances;
        out.compiler = std::get<CorpusLibrary>(loaded).compiler;
        return out;
    }();
    return t;
}

// The builds by order: the one in Bisheng's order (left to right) and the other.
struct Builds {
    std::span<const Instance> bisheng, other;
    std::string bisheng_compiler, other_compiler;
};
Builds builds() {
    const KernelCompilerInfo mine = upstream_corpus_kernel_compiler();
    const Twin& t = twin();
    if (mine.left_to_right) return {upstream_corpus(), t.instances, mine.description, t.compiler.description};
    return {t.instances, upstream_corpus(), t.compiler.description, mine.description};
}

// A run's findings by kind and first site, with the first message of each.
acl::FindingsBySite findings(const hw::Report& r) {
    acl::FindingsBySite out;
    for (const hw::Violation& v : r.violations) {
        if (v.severity != hw::Severity::error) continue;
        const std::string site = v.locations.empty() ? "" : v.locations.front().site;
        out.emplace(acl::finding_key(hw::violation_kind_name(v.kind), site), v.message);
    }
    return out;
}

// What one case shows under both orders.
struct OrderRun {
    acl::FindingsBySite bisheng, other;
    std::vector<std::string> labelled;  // the findings one order shows only, labelled
    std::string output_difference;      // "" when every tensor is the same
};

OrderRun run_both(const Instance& bisheng, const Instance& other, const props::Case& c) {
    const verify::CaseData data = verify::make_case_data(c.problem, c.data, c.data_seed, c.sign);
    const RunRequest rq = make_request(c, data);
    const InstanceRun b = bisheng.run(rq);
    const InstanceRun o = other.run(rq);
    OrderRun out;
    out.bisheng = findings(b.report);
    out.other = findings(o.report);
    for (const acl::OrderDependentFinding& d : acl::order_dependent_findings(out.bisheng, out.other))
        out.labelled.push_back(fmt::format("{}: {}\n    under {}: {}", d.finding, d.label,
                                           d.under_bisheng ? "Bisheng's order" : "the other order",
                                           d.message));
    if (b.tensors.size() != o.tensors.size()) {
        out.output_difference = "the two builds wrote different numbers of tensors";
    } else {
        for (size_t i = 0; i < b.tensors.size() && out.output_difference.empty(); ++i)
            if (b.tensors[i] != o.tensors[i])
                out.output_difference = fmt::format("tensor {} ({}): {}", i, rq.tensors[i].name,
                                                    first_difference(b.tensors[i], o.tensors[i], 1));
    }
    return out;
}

const Instance* by_name(std::span<const Instance> all, std::string_view name) {
    for (const Instance& i : all)
        if (name == i.name) return &i;
    return nullptr;
}

TEST(UpstreamCorpusOrder, TheTwoBuildsEvaluateArgumentsInOppositeOrders) {
    ASSERT_EQ(twin().error, "");
    const KernelCompilerInfo mine = upstream_corpus_kernel_compiler();
    std::printf("default build: %s\nother build: %s\n", mine.description, twin().compiler.description);
    EXPECT_NE(std::string_view(mine.description), "");
    EXPECT_NE(mine.left_to_right, twin().compiler.left_to_right);
    // The same instances, index for index, each compiled twice: the loaded library's own code, not the linked
    // one's (both export the same names: registry.cpp).
    ASSERT_EQ(upstream_corpus().size(), twin().instances.size());
    for (size_t i = 0; i < upstream_corpus().size(); ++i) {
        EXPECT_EQ(upstream_corpus()[i].index, twin().instances[i].index);
        EXPECT_STREQ(upstream_corpus()[i].text, twin().instances[i].text);
        EXPECT_NE(upstream_corpus()[i].run, twin().instances[i].run) << "instance " << i;
    }
}

// docs/upstream-findings.md §5 under both orders: the last tile's read past the C region meets the Add's own
// destination only when that buffer was carved first (GCC's order carves the node's own after its children's
// arguments are evaluated last-first: first); a unary node over AccLoad carves the only buffer, so it
// overlaps under both.
TEST(UpstreamCorpusOrder, TheOverlapOfTheLastTileDependsOnTheOrderOnlyForANodeWithASecondInput) {
    ASSERT_EQ(twin().error, "");
    const Builds b = builds();
    for (const char* name : {"ub_last_tile_add", "ub_last_tile_relu", "ub_last_tile_cast"}) {
        const Instance* bi = by_name(b.bisheng, name);
        const Instance* oi = by_name(b.other, name);
        ASSERT_NE(bi, nullptr) << name;
        ASSERT_NE(oi, nullptr) << name;
        const OrderRun r = run_both(*bi, *oi, props::case_from_text(bi->text));
        EXPECT_EQ(r.output_difference, "") << name;
        const auto overlaps = [](const acl::FindingsBySite& f) {
            for (const auto& [k, m] : f)
                if (k.rfind("operand_overlap at ", 0) == 0) return true;
            return false;
        };
        EXPECT_TRUE(overlaps(r.other)) << name << " under " << b.other_compiler;
        for (const std::string& l : r.labelled) std::printf("%s order-dependent: %s\n", name, l.c_str());
        if (std::string_view(name) == "ub_last_tile_add") {
            EXPECT_FALSE(overlaps(r.bisheng)) << "under " << b.bisheng_compiler;
            ASSERT_EQ(r.labelled.size(), 1u);
            EXPECT_EQ(r.labelled.front().rfind("operand_overlap at operations.hpp:", 0), 0u)
                << r.labelled.front();
            EXPECT_NE(r.labelled.front().find(
                          ": depends on the order in which the compiler evaluates constructor arguments "
                          "(unspecified in C++); under Bisheng's order: no finding"),
                      std::string::npos)
                << r.labelled.front();
        } else {
            EXPECT_TRUE(overlaps(r.bisheng)) << name << " under " << b.bisheng_compiler;
            EXPECT_TRUE(r.labelled.empty()) << name;
        }
    }
}

// Every instance of the corpus at a small runtime case drawn for it (a named one at its own shape too): the
// same outputs under both orders, and every finding that differs printed with its label (a count per kind at
// the end).
TEST(UpstreamCorpusOrder, EveryInstanceWritesTheSameOutputsUnderBothOrders) {
    ASSERT_EQ(twin().error, "");
    const Builds b = builds();
    ASSERT_EQ(b.bisheng.size(), b.other.size());
    std::map<std::string, int> differing;  // finding kind -> cases
    int cases = 0;
    for (size_t i = 0; i < b.bisheng.size(); ++i) {
        const props::Case base = props::case_from_text(b.bisheng[i].text);
        // A named instance's own shape is the one its finding needs; a random instance runs at small ones.
        std::vector<props::Case> all;
        if (!std::string_view(b.bisheng[i].name).empty()) all.push_back(base);
        const rc::Gen<props::Case> gen = runtime_cases(base);
        all.push_back(gen(rc::Random(7919u * static_cast<uint64_t>(b.bisheng[i].index)), 5).value());
        for (const props::Case& c : all) {
            ++cases;
            const OrderRun r = run_both(b.bisheng[i], b.other[i], c);
            EXPECT_EQ(r.output_difference, "")
                << "instance " << b.bisheng[i].index << " " << b.bisheng[i].name << "\n"
                << props::to_text(c, "x");
            for (const std::string& l : r.labelled) {
                std::printf("instance %d %s (m=%lld n=%lld k=%lld, %u cores): order-dependent: %s\n",
                            b.bisheng[i].index, b.bisheng[i].name, static_cast<long long>(c.problem.m),
                            static_cast<long long>(c.problem.n), static_cast<long long>(c.problem.k), c.cores,
                            l.c_str());
                ++differing[l.substr(0, l.find(' '))];
            }
        }
    }
    std::printf("%d cases of %zu instances under %s and %s\n", cases, b.bisheng.size(),
                b.bisheng_compiler.c_str(), b.other_compiler.c_str());
    for (const auto& [kind, n] : differing)
        std::printf("  %d finding(s) %s depend on the order\n", n, kind.c_str());
}

}  // namespace
}  // namespace evg::upstream::corpus
