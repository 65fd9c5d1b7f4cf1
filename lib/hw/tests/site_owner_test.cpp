// Whose code a site is in, and a report headed by the user's line (site.hpp, Report::set_launch_site).
#include <gtest/gtest.h>

#include "evg/hw/checker.hpp"
#include "evg/hw/report.hpp"
#include "evg/hw/site.hpp"

namespace evg::hw {
namespace {

// The registered directories decide, the longest holding the file first; a file in none is the user's. (The
// registry is process-wide: the directories here exist nowhere else.)
TEST(SiteOwner, TheLongestRegisteredDirectoryDecides) {
    const Site user{"/srv/proj/my_evg.cpp", 52};
    const Site catlass{"/srv/catlass/include/catlass/epilogue/fusion/visitor_aux_load.hpp", 122};
    const Site standin{"/srv/catlass/include/../standins/catlass/gemm/device/device_gemm.hpp", 9};
    register_code_dir("/srv/catlass/include/", SiteOwner::catlass);
    register_code_dir("/srv/catlass/standins", SiteOwner::evgcheck);
    EXPECT_EQ(site_owner(user), SiteOwner::user);
    EXPECT_EQ(site_owner(catlass), SiteOwner::catlass);
    EXPECT_EQ(site_owner(standin), SiteOwner::evgcheck);  // lexically normal: /srv/catlass/standins/...
    EXPECT_EQ(site_owner(Site{"/srv/catlassic/x.hpp", 1}), SiteOwner::user);  // a prefix is not a folder
}

Report one_race(const Site& first, const Site& second) {
    Report r;
    r.arch = "Ascend950";
    r.block_dim = 1;
    r.violations.push_back({ViolationKind::race,
                            Severity::error,
                            "RAW race on UB[AIV 0]",
                            {location_at(1, 0, "AIV 0", Pipe::MTE2, "DataCopyPad GM->UB", first),
                             location_at(2, 0, "AIV 0", Pipe::V, "Add", second)},
                            1});
    return r;
}

// A program's report is headed by the user's own line where an instruction has one, else by the user's launch
// line; Catlass's lines stay, marked as Catlass's, with the launch line after them. Without a launch site (a
// harness) the text is unchanged.
TEST(SiteOwner, AReportIsHeadedByTheUsersLine) {
    register_code_dir("/srv/catlass/include/", SiteOwner::catlass);
    const Site copy{"/srv/catlass/include/catlass/epilogue/tile/copy_gm_to_ub_tla.hpp", 121};
    const Site functor{"/srv/proj/my_evg.cpp", 52};
    const Site add{"/srv/catlass/include/catlass/epilogue/fusion/operations.hpp", 142};
    const Site launch{"/srv/proj/my_evg.cpp", 190};

    Report harness = one_race(copy, functor);
    EXPECT_NE(harness.text().find("error [race] RAW race on UB[AIV 0]\n"), std::string::npos)
        << harness.text();

    Report mixed = one_race(copy, functor);
    mixed.set_launch_site(launch);
    EXPECT_NE(mixed.text().find("error [race] my_evg.cpp:52: RAW race on UB[AIV 0]\n"), std::string::npos)
        << mixed.text();
    EXPECT_NE(
        mixed.text().find("issued at copy_gm_to_ub_tla.hpp:121 (Catlass), from my_evg.cpp:190 (your kernel "
                          "launch)\n"),
        std::string::npos)
        << mixed.text();
    EXPECT_NE(mixed.text().find("issued at my_evg.cpp:52\n"), std::string::npos) << mixed.text();

    Report library = one_race(copy, add);
    library.set_launch_site(launch);
    EXPECT_NE(library.text().find("error [race] my_evg.cpp:190: RAW race"), std::string::npos)
        << library.text();
    EXPECT_EQ(library.violations[0].locations[1].owner, "catlass");
    EXPECT_EQ(library.violations[0].locations[1].user_site, "my_evg.cpp:190");
    EXPECT_NE(library.json().find("\"launch_site\""), std::string::npos);
}

}  // namespace
}  // namespace evg::hw
