// The compiler that built kernel code, as kernel_operator.h registers it (acl/kernel_compiler.hpp), and the
// label of a finding that depends on the order of evaluation (docs/hardware-model.md §18).
#include "acl/kernel_compiler.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "acl/kernel_order.hpp"
#include "kernel_operator.h"

namespace {

// The probe measures the order of the compiler that built this file: Clang evaluates a constructor's
// arguments left to right, GCC on x86-64 right to left.
TEST(KernelCompiler, TheProbeMeasuresThisCompilersOrder) {
#if defined(__clang__)
    EXPECT_TRUE(evg::acl::program::arguments_left_to_right());
    const std::string name = "clang ";
#else
    EXPECT_FALSE(evg::acl::program::arguments_left_to_right());
    const std::string name = "gcc ";
#endif
    const auto all = evg::acl::program_kernel_compilers();
    ASSERT_FALSE(all.empty());
    EXPECT_EQ(all.front().name.rfind(name, 0), 0u) << all.front().name;
    EXPECT_NE(all.front().name.back(), ' ');
    EXPECT_EQ(all.front().left_to_right, evg::acl::program::arguments_left_to_right());
    EXPECT_NE(evg::acl::describe_kernel_compilers().find(all.front().name), std::string::npos);
}

// One entry per distinct compiler; a second one is listed after the first, in the text and in the JSON.
TEST(KernelCompiler, EveryDistinctCompilerIsListedOnce) {
    const size_t before = evg::acl::program_kernel_compilers().size();
    EXPECT_TRUE(evg::acl::register_kernel_compiler("testcc 1.0  ", true));
    EXPECT_TRUE(evg::acl::register_kernel_compiler("testcc 1.0", true));
    const auto all = evg::acl::program_kernel_compilers();
    ASSERT_EQ(all.size(), before + 1);
    EXPECT_EQ(all.back().name, "testcc 1.0");
    const std::string text = evg::acl::describe_kernel_compilers();
    EXPECT_NE(text.find("; testcc 1.0 (arguments evaluated left to right: Bisheng's order)"),
              std::string::npos)
        << text;
    const std::string json = evg::acl::kernel_compilers_json();
    EXPECT_NE(json.find("\"name\":\"testcc 1.0\""), std::string::npos) << json;
    EXPECT_NE(json.find("\"argument_order\":\"left_to_right\""), std::string::npos) << json;
}

TEST(KernelCompiler, TheOrderDependentLabelSaysWhatBishengsOrderShows) {
    EXPECT_EQ(
        evg::acl::order_dependent_label("no finding"),
        "depends on the order in which the compiler evaluates constructor arguments (unspecified in C++); "
        "under Bisheng's order: no finding");
    EXPECT_EQ(std::string(evg::acl::argument_order_name(false)), "right to left: not Bisheng's order");
}

// A program is in Bisheng's order when every compiler of its kernel code is; none, or both orders, is not
// known.
TEST(KernelOrder, EveryCompilerMustEvaluateLeftToRight) {
    using evg::acl::KernelCompiler;
    const KernelCompiler clang{"clang 14.0.6", true}, gcc{"gcc 12.2.0", false};
    EXPECT_EQ(evg::acl::in_bishengs_order(std::vector{clang}), true);
    EXPECT_EQ(evg::acl::in_bishengs_order(std::vector{clang, clang}), true);
    EXPECT_EQ(evg::acl::in_bishengs_order(std::vector{gcc}), false);
    EXPECT_EQ(evg::acl::in_bishengs_order(std::vector{clang, gcc}), std::nullopt);
    EXPECT_EQ(evg::acl::in_bishengs_order(std::vector{gcc, clang}), std::nullopt);
    EXPECT_EQ(evg::acl::in_bishengs_order(std::vector<KernelCompiler>{}), std::nullopt);
}

// What kernel_compilers_json() writes reads back; entries a reader cannot take are left out, not guessed.
TEST(KernelOrder, TheJsonOfTheCompilersReadsBack) {
    const auto back = evg::acl::kernel_compilers_from_json(evg::acl::kernel_compilers_json());
    const auto all = evg::acl::program_kernel_compilers();
    ASSERT_EQ(back.size(), all.size());
    for (size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(back[i].name, all[i].name);
        EXPECT_EQ(back[i].left_to_right, all[i].left_to_right);
    }
    EXPECT_EQ(evg::acl::in_bishengs_order(back), evg::acl::program_in_bishengs_order());
    const auto read = evg::acl::kernel_compilers_from_json(
        R"([{"name":"a","argument_order":"left_to_right"},{"name":"b","argument_order":"sideways"},)"
        R"({"name":7,"argument_order":"right_to_left"},{"argument_order":"right_to_left"},3,)"
        R"({"name":"c","argument_order":"right_to_left"}])");
    ASSERT_EQ(read.size(), 2u);
    EXPECT_EQ(read[0].name, "a");
    EXPECT_TRUE(read[0].left_to_right);
    EXPECT_EQ(read[1].name, "c");
    EXPECT_FALSE(read[1].left_to_right);
    EXPECT_TRUE(evg::acl::kernel_compilers_from_json("not json").empty());
    EXPECT_TRUE(evg::acl::kernel_compilers_from_json(R"({"name":"a"})").empty());
}

// Two runs of one case are compared by kind and first site: a finding both show is not order-dependent even
// when its message differs; one either order shows alone is, labelled with what Bisheng's order shows.
TEST(KernelOrder, AFindingOneOrderShowsAloneIsLabelled) {
    using evg::acl::finding_key;
    EXPECT_EQ(finding_key("operand_overlap", "operations.hpp:142"), "operand_overlap at operations.hpp:142");
    const evg::acl::FindingsBySite bisheng{{finding_key("race", "a.cpp:1"), "race here"},
                                           {finding_key("ub_bounds", "b.cpp:2"), "over by 32 bytes"}};
    const evg::acl::FindingsBySite other{{finding_key("race", "a.cpp:1"), "the same race, other words"},
                                         {finding_key("operand_overlap", "c.cpp:3"), "overlap"}};
    const auto d = evg::acl::order_dependent_findings(bisheng, other);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].finding, "operand_overlap at c.cpp:3");
    EXPECT_EQ(d[0].message, "overlap");
    EXPECT_FALSE(d[0].under_bisheng);
    EXPECT_EQ(d[0].label, evg::acl::order_dependent_label("no finding"));
    EXPECT_EQ(d[1].finding, "ub_bounds at b.cpp:2");
    EXPECT_TRUE(d[1].under_bisheng);
    EXPECT_NE(d[1].label.find("under Bisheng's order: this finding"), std::string::npos) << d[1].label;
    EXPECT_TRUE(evg::acl::order_dependent_findings(bisheng, bisheng).empty());
}

}  // namespace
