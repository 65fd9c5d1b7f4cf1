// Call chains (call_chain.hpp): captured on a stack, resolved to lines with their owners, and read by a
// report into the location's chain and the user's line that heads the finding. This file is compiled with -g
// (its CMakeLists), as evgcheck_add_program compiles a program.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "call_chain_library/include/library_helper.hpp"
#include "evg/hw/call_chain.hpp"
#include "evg/hw/checker.hpp"
#include "evg/hw/report.hpp"

namespace evg::hw {
namespace {

std::string here_dir() {
    return std::filesystem::path(__FILE__).parent_path().string();
}

// This folder is the user's, the library's folder Catlass's (the registry is process-wide; longest wins).
void register_dirs() {
    register_code_dir(here_dir(), SiteOwner::user);
    register_code_dir(here_dir() + "/call_chain_library/include", SiteOwner::catlass);
}

uint32_t line_of(const std::string& file, const std::string& marker) {
    const Site s{file.c_str(), 1};
    for (uint32_t l = 1; l < 400; ++l) {
        const std::string text = source_text({s.file, l});
        if (text.find(marker) != std::string::npos) return l;
    }
    return 0;
}

[[gnu::noinline]] uint32_t users_call() {
    const uint32_t id = library::issue_from_library(2);  // the user's call (marker)
    asm volatile("" ::: "memory");                       // no tail call: this frame stays on the stack
    return id;
}

TEST(CallChain, ResolvesToTheLibrarysLinesAndTheUsersCall) {
    register_dirs();
    ASSERT_TRUE(call_chains_on());
    uint32_t ids[2] = {};
    static volatile int rounds = 2;  // not a constant: the loop is not unrolled, the call has one address
    for (int k = 0; k < rounds; ++k) ids[k & 1] = users_call();  // one stack twice: one id
    const uint32_t id = ids[0];
    ASSERT_NE(id, 0u);
    EXPECT_EQ(ids[1], id);
    EXPECT_NE(users_call(), id);  // called from another line: another chain
    const std::vector<ChainFrame> frames = call_chain_frames(id);
    const std::string library = here_dir() + "/call_chain_library/include/library_helper.hpp";
    const uint32_t library_line = line_of(library, "the library's line (call_chain_test.cpp)");
    const uint32_t recursion_line = line_of(library, "return issue_from_library(depth - 1);");
    const uint32_t user_line = line_of(__FILE__, "the user's call (marker)");
    ASSERT_NE(library_line * recursion_line * user_line, 0u);
    // Innermost first: the capture's line, the library's recursion twice, then the user's call.
    int library_at = -1, user_at = -1, recursions = 0;
    for (size_t i = 0; i < frames.size(); ++i) {
        const ChainFrame& f = frames[i];
        if (f.owner == SiteOwner::catlass && f.line == library_line && library_at < 0)
            library_at = static_cast<int>(i);
        if (f.owner == SiteOwner::catlass && f.line == recursion_line) ++recursions;
        if (f.owner == SiteOwner::user && f.line == user_line && user_at < 0) {
            user_at = static_cast<int>(i);
            EXPECT_NE(f.function.find("users_call"), std::string::npos) << f.function;
        }
    }
    EXPECT_GE(library_at, 0);
    EXPECT_EQ(recursions, 2);
    EXPECT_GT(user_at, library_at);
}

// A report reads the chain: the location keeps its Catlass site, gains the frames up to the user's call, and
// the finding is headed by that call instead of the launch line.
TEST(CallChain, AReportIsHeadedByTheUsersCallerNotTheLaunch) {
    register_dirs();
    const std::string library = here_dir() + "/call_chain_library/include/library_helper.hpp";
    const uint32_t library_line = line_of(library, "the library's line (call_chain_test.cpp)");
    const uint32_t user_line = line_of(__FILE__, "the user's call (marker)");
    const std::string user_site = fmt::format("call_chain_test.cpp:{}", user_line);
    Report r;
    r.arch = "Ascend950";
    r.block_dim = 1;
    Location l = location_at(3, 0, "AIV 0", Pipe::V, "Adds", Site{library.c_str(), library_line});
    l.chain_id = users_call();
    r.violations.push_back({ViolationKind::race, Severity::error, "RAW race on UB[AIV 0]", {l}, 1});
    const std::string launch = std::string(__FILE__);
    r.set_launch_site(Site{launch.c_str(), 7});
    const Location& got = r.violations[0].locations[0];
    ASSERT_FALSE(got.chain.empty());
    EXPECT_EQ(got.chain.back().owner, "user");
    EXPECT_EQ(got.chain.back().site, user_site);
    EXPECT_EQ(got.user_site, user_site);
    EXPECT_NE(got.user_source.find("the user's call (marker)"), std::string::npos);
    for (const Location::Frame& f : got.chain) EXPECT_NE(f.owner, "evgcheck");
    const std::string text = r.text();
    EXPECT_NE(text.find("error [race] " + user_site + ": RAW race"), std::string::npos) << text;
    EXPECT_NE(
        text.find(fmt::format("issued at library_helper.hpp:{} (Catlass), called from library_helper.hpp:",
                              library_line)),
        std::string::npos)
        << text;
    EXPECT_EQ(text.find("your kernel launch"), std::string::npos) << text;
    EXPECT_NE(r.json().find("\"chain\""), std::string::npos);
}

// Without a chain (chains off, or no debug information), the launch line stays the user's line.
TEST(CallChain, NoChainFallsBackToTheLaunch) {
    register_dirs();
    const std::string library = here_dir() + "/call_chain_library/include/library_helper.hpp";
    Report r;
    r.arch = "Ascend950";
    r.block_dim = 1;
    r.violations.push_back({ViolationKind::race,
                            Severity::error,
                            "RAW race on UB[AIV 0]",
                            {location_at(3, 0, "AIV 0", Pipe::V, "Adds", Site{library.c_str(), 12})},
                            1});
    const std::string launch = std::string(__FILE__);
    r.set_launch_site(Site{launch.c_str(), 7});
    EXPECT_TRUE(r.violations[0].locations[0].chain.empty());
    EXPECT_NE(r.text().find("error [race] call_chain_test.cpp:7: RAW race"), std::string::npos) << r.text();
    EXPECT_NE(r.text().find("(your kernel launch)"), std::string::npos) << r.text();
}

}  // namespace
}  // namespace evg::hw
