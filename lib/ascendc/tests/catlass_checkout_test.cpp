// Which Catlass: a checkout's git commit and tags (loose, packed, annotated, a worktree), the version its own
// files state, and the fingerprint of its headers, which follows every byte and every path of include/catlass
// and include/tla and nothing else.
#include "acl/catlass_checkout.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using evg::acl::CatlassCheckout;
using evg::acl::identify_catlass_checkout;

const std::string kCommit = "0123456789abcdef0123456789abcdef01234567";
const std::string kOther = "fedcba9876543210fedcba9876543210fedcba98";

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

class Checkout : public ::testing::Test {
  protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() / ("evg_checkout_" + std::to_string(::getpid()) + "_" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root_);
        write(root_ / "include/catlass/catlass.hpp", "#pragma once\n");
        write(root_ / "include/catlass/epilogue/fusion/visitor.hpp", "struct V {};\n");
        write(root_ / "include/tla/tensor.hpp", "struct T {};\n");
    }
    void TearDown() override { fs::remove_all(root_); }
    fs::path root_;
};

TEST(CatlassCheckoutNone, AFolderWithoutCatlassIsNamedAsSuch) {
    const CatlassCheckout c = identify_catlass_checkout(fs::temp_directory_path() / "evg_no_such_checkout");
    EXPECT_FALSE(c.found);
    EXPECT_NE(c.describe().find("(not a Catlass checkout: no include/catlass/catlass.hpp)"),
              std::string::npos)
        << c.describe();
}

TEST_F(Checkout, APlainFolderHasNoCommitNoVersionAndMatchesNoTestedVersion) {
    const CatlassCheckout c = identify_catlass_checkout(root_);
    EXPECT_TRUE(c.found);
    EXPECT_EQ(c.root, fs::weakly_canonical(root_).string());
    EXPECT_EQ(c.git_commit, "");
    EXPECT_EQ(c.version, "");
    EXPECT_EQ(c.header_files, 3);
    EXPECT_EQ(c.fingerprint.size(), 16u);
    EXPECT_EQ(c.tested, nullptr);
    EXPECT_NE(
        c.describe().find("(not a git checkout; no version file; headers match no version evgcheck's tests "
                          "run (fingerprint " +
                          c.fingerprint + "))"),
        std::string::npos)
        << c.describe();
}

TEST_F(Checkout, TheFingerprintFollowsEveryHeaderByteAndPathAndNothingElse) {
    const std::string before = identify_catlass_checkout(root_).fingerprint;
    // Outside include/catlass and include/tla: no change.
    write(root_ / "examples/x.cpp", "int main() {}\n");
    write(root_ / "include/other/y.hpp", "\n");
    write(root_ / "README.md", "hello\n");
    EXPECT_EQ(identify_catlass_checkout(root_).fingerprint, before);
    // The same headers in another folder: the same fingerprint.
    const fs::path copy = root_.string() + "_copy";
    fs::remove_all(copy);
    fs::create_directories(copy);
    fs::copy(root_ / "include", copy / "include", fs::copy_options::recursive);
    EXPECT_EQ(identify_catlass_checkout(copy).fingerprint, before);
    fs::remove_all(copy);
    // One byte of one header.
    write(root_ / "include/tla/tensor.hpp", "struct U {};\n");
    const std::string edited = identify_catlass_checkout(root_).fingerprint;
    EXPECT_NE(edited, before);
    write(root_ / "include/tla/tensor.hpp", "struct T {};\n");
    EXPECT_EQ(identify_catlass_checkout(root_).fingerprint, before);
    // A renamed header, an added one, moved bytes between two files.
    fs::rename(root_ / "include/tla/tensor.hpp", root_ / "include/tla/tensor2.hpp");
    EXPECT_NE(identify_catlass_checkout(root_).fingerprint, before);
    fs::rename(root_ / "include/tla/tensor2.hpp", root_ / "include/tla/tensor.hpp");
    write(root_ / "include/catlass/new.hpp", "");
    EXPECT_NE(identify_catlass_checkout(root_).fingerprint, before);
    fs::remove(root_ / "include/catlass/new.hpp");
    write(root_ / "include/catlass/catlass.hpp", "#pragma once\nstruct V {};\n");
    write(root_ / "include/catlass/epilogue/fusion/visitor.hpp", "");
    EXPECT_NE(identify_catlass_checkout(root_).fingerprint, before);
}

TEST_F(Checkout, TheCommitOfABranchLooseOrPackedAndItsTags) {
    write(root_ / ".git/HEAD", "ref: refs/heads/main\n");
    write(root_ / ".git/refs/heads/main", kCommit + "\n");
    write(root_ / ".git/refs/tags/v1.6.1", kCommit + "\n");
    write(root_ / ".git/refs/tags/v1.6.0", kOther + "\n");
    CatlassCheckout c = identify_catlass_checkout(root_);
    EXPECT_EQ(c.git_commit, kCommit);
    EXPECT_EQ(c.git_tags, "v1.6.1");
    EXPECT_NE(c.describe().find("git commit " + kCommit.substr(0, 12) + ", tag v1.6.1;"), std::string::npos)
        << c.describe();

    // Packed: the branch, a lightweight tag, and an annotated tag whose object peels to the commit.
    fs::remove_all(root_ / ".git/refs");
    write(root_ / ".git/packed-refs", "# pack-refs with: peeled fully-peeled sorted\n" + kCommit +
                                          " refs/heads/main\n" + kCommit + " refs/tags/light\n" + kOther +
                                          " refs/tags/v2.0\n^" + kCommit + "\n" + kOther +
                                          " refs/tags/other\n");
    c = identify_catlass_checkout(root_);
    EXPECT_EQ(c.git_commit, kCommit);
    EXPECT_EQ(c.git_tags, "light, v2.0");
}

TEST_F(Checkout, ADetachedHeadAndAWorktree) {
    write(root_ / ".git/HEAD", kCommit + "\n");
    EXPECT_EQ(identify_catlass_checkout(root_).git_commit, kCommit);

    // A worktree: .git is a file naming its folder, whose commondir holds the refs.
    fs::remove_all(root_ / ".git");
    const fs::path main_git = root_.string() + "_maingit";
    fs::remove_all(main_git);
    write(main_git / "worktrees/wt/HEAD", "ref: refs/heads/feature\n");
    write(main_git / "worktrees/wt/commondir", "../..\n");
    write(main_git / "refs/heads/feature", kOther + "\n");
    write(root_ / ".git", "gitdir: " + (main_git / "worktrees/wt").string() + "\n");
    EXPECT_EQ(identify_catlass_checkout(root_).git_commit, kOther);
    fs::remove_all(main_git);
}

TEST_F(Checkout, AGitFolderThatNamesNoCommitIsNoCommit) {
    write(root_ / ".git/HEAD", "ref: refs/heads/unborn\n");
    EXPECT_EQ(identify_catlass_checkout(root_).git_commit, "");
    write(root_ / ".git/HEAD", "garbage\n");
    EXPECT_EQ(identify_catlass_checkout(root_).git_commit, "");
}

TEST_F(Checkout, TheVersionFromTheCheckoutsOwnFilesInTheirOrder) {
    write(root_ / "CMakeLists.txt",
          "cmake_minimum_required(VERSION 3.16)\nproject(catlass\n  VERSION 1.7.0\n  LANGUAGES CXX)\n");
    CatlassCheckout c = identify_catlass_checkout(root_);
    EXPECT_EQ(c.version, "1.7.0");
    EXPECT_EQ(c.version_from, "CMakeLists.txt");
    write(root_ / "VERSION", "1.6.9\n");
    EXPECT_EQ(identify_catlass_checkout(root_).version, "1.6.9");
    write(root_ / "version.info", "# CANN style\nVersion=1.6.2\n");
    c = identify_catlass_checkout(root_);
    EXPECT_EQ(c.version, "1.6.2");
    EXPECT_EQ(c.version_from, "version.info");
    EXPECT_NE(c.describe().find("; version 1.6.2 from version.info;"), std::string::npos) << c.describe();
    // A CMakeLists.txt whose project has no VERSION states none.
    fs::remove(root_ / "version.info");
    fs::remove(root_ / "VERSION");
    write(root_ / "CMakeLists.txt", "cmake_minimum_required(VERSION 3.16)\nproject(catlass LANGUAGES CXX)\n");
    EXPECT_EQ(identify_catlass_checkout(root_).version, "");
}

TEST_F(Checkout, TheJsonSaysWhatTheLineSays) {
    write(root_ / ".git/HEAD", kCommit + "\n");
    const CatlassCheckout c = identify_catlass_checkout(root_);
    const std::string j = c.json();
    EXPECT_NE(j.find("\"git_commit\":\"" + kCommit + "\""), std::string::npos) << j;
    EXPECT_NE(j.find("\"fingerprint\":\"" + c.fingerprint + "\""), std::string::npos) << j;
    EXPECT_NE(j.find("\"tested_version\":\"\""), std::string::npos) << j;
}

// The program's registration (kernel_operator.h under evgcheck_use_catlass) is identified once.
TEST_F(Checkout, TheProgramsRegisteredCheckout) {
    EXPECT_TRUE(evg::acl::register_program_catlass_root(root_.c_str()));
    ASSERT_TRUE(evg::acl::program_catlass_root().has_value());
    EXPECT_EQ(*evg::acl::program_catlass_root(), root_.string());
    const auto& c = evg::acl::program_catlass();
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->root, fs::weakly_canonical(root_).string());
    EXPECT_TRUE(c->found);
}

}  // namespace
