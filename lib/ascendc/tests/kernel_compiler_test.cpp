// The compiler that built kernel code, as kernel_operator.h registers it (acl/kernel_compiler.hpp), and the
// label of a finding that depends on the order of evaluation (docs/hardware-model.md §18).
#include "acl/kernel_compiler.hpp"

#include <gtest/gtest.h>

#include <string>

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

}  // namespace
