// Which Catlass a report is about: each checkout of EVG_CATLASS_ROOTS is identified the same way by the table
// of tested versions (acl/catlass_versions.def) as by the snapshots' own README
// (../shared/upstream/README.md, written apart from evgcheck: its table names each folder's version and
// upstream commit), and `evgcheck run-program` names that checkout for a program built against it.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include "acl/catlass_checkout.hpp"

namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Snapshot {
    std::string version;  // "master", "v1.6.0"
    std::string commit;
};

// The README's table rows: | `catlass-v1.6.0/` | release tag `v1.6.0`, commit `db93...` | ...
std::map<std::string, Snapshot> readme_snapshots() {
    std::map<std::string, Snapshot> out;
    std::istringstream in(read(EVG_SHARED_UPSTREAM_README));
    static const std::regex row(R"(^\| `([^`/]+)/` \| [^|`]*`([^`]+)`, commit `([0-9a-f]{40})`)");
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_search(line, m, row)) out[m[1]] = Snapshot{m[2], m[3]};
    }
    return out;
}

// "root|program" pairs, ','-separated.
std::vector<std::pair<std::string, std::string>> checkouts_and_programs() {
    std::vector<std::pair<std::string, std::string>> out;
    std::istringstream in(EVG_CATLASS_PROGRAMS);
    for (std::string item; std::getline(in, item, ',');)
        if (const size_t bar = item.find('|'); bar != std::string::npos)
            out.emplace_back(item.substr(0, bar), item.substr(bar + 1));
    return out;
}

struct Ran {
    int code = -1;
    std::string out;
};
Ran run(const std::string& command) {
    Ran r;
    FILE* p = ::popen((command + " 2>&1").c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf{};
    size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    const int status = ::pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

TEST(CatlassVersions, TheReadmeNamesTheSnapshots) {
    const auto snapshots = readme_snapshots();
    EXPECT_GE(snapshots.size(), 2u) << "the README's table was not read: " << EVG_SHARED_UPSTREAM_README;
}

// Each snapshot the README describes is the tested version of the same commit: the table's fingerprint is
// that of the snapshot's headers, and its commit the one upstream gave it.
TEST(CatlassVersions, EachSnapshotIsItsTestedVersion) {
    const fs::path shared = fs::path(EVG_SHARED_UPSTREAM_README).parent_path();
    for (const auto& [folder, snap] : readme_snapshots()) {
        const evg::acl::CatlassCheckout c = evg::acl::identify_catlass_checkout(shared / folder);
        ASSERT_TRUE(c.found) << folder;
        ASSERT_NE(c.tested, nullptr) << folder << ": its headers match no entry of catlass_versions.def; "
                                     << "fingerprint " << c.fingerprint;
        EXPECT_EQ(c.tested->commit, snap.commit) << folder;
        EXPECT_EQ(c.tested->name, snap.version) << folder;
        EXPECT_NE(c.describe().find(fmt::format("headers of {} {}", snap.version, snap.commit.substr(0, 8))),
                  std::string::npos)
            << c.describe();
    }
    // Every entry of the table is a snapshot the README describes (an entry nobody can check is a guess).
    const auto snapshots = readme_snapshots();
    for (const evg::acl::TestedCatlass& t : evg::acl::tested_catlass_versions()) {
        bool described = false;
        for (const auto& [folder, snap] : snapshots) described |= snap.commit == t.commit;
        EXPECT_TRUE(described) << t.name << " " << t.commit;
    }
}

// A program built against a checkout says which, under run-program and in its --report.
TEST(CatlassVersions, RunProgramNamesTheCheckoutOfTheProgram) {
    const auto pairs = checkouts_and_programs();
    ASSERT_FALSE(pairs.empty()) << EVG_CATLASS_PROGRAMS;
    const fs::path report = fs::temp_directory_path() / fmt::format("evg_versions_{}.json", ::getpid());
    for (const auto& [root, program] : pairs) {
        const evg::acl::CatlassCheckout c = evg::acl::identify_catlass_checkout(root);
        const Ran r =
            run(fmt::format("'{}' run-program --report '{}' --known '{}' '{}' 65 100 40", EVGCHECK_BINARY,
                            report.string(), EVG_UPSTREAM_KNOWN_FINDINGS, program));
        EXPECT_EQ(r.code, 0) << r.out;
        EXPECT_NE(r.out.find("catlass: " + c.describe() + "\n"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("catlass: " + c.root + " ("), std::string::npos) << r.out;
        const nlohmann::json j = nlohmann::json::parse(read(report), nullptr, false);
        ASSERT_TRUE(j.is_object()) << read(report);
        EXPECT_EQ(j["catlass"].value("root", ""), c.root);
        EXPECT_EQ(j["catlass"].value("fingerprint", ""), c.fingerprint);
        EXPECT_EQ(j["catlass"].value("tested_commit", "x"), c.tested ? std::string(c.tested->commit) : "");
    }
    fs::remove(report);
}

}  // namespace
