// The corpus boundary's stamp (corpus/corpus_load.hpp), on the runner itself: a library built from other
// evgcheck headers, or by an evgcheck before the stamp, is refused with a sentence and exit kExitStale,
// never read; a library with this build's stamp is read (the control: the fixture has no instance 0, and the
// runner says so). The fixtures: corpus_library_fixture.cpp.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "evg/process/subprocess.hpp"
#include "runner_protocol.hpp"

namespace evg::upstream::runner {
namespace {

struct RunnerRun {
    int exit_code = -1;
    std::string error;  // what the runner printed
};

RunnerRun run_on(const std::string& library) {
    Request rq;
    rq.library = library;
    rq.index = 0;
    rq.cases = 1;
    rq.out = testing::TempDir() + "/runner_abi_verdict.txt";
    const process::ProcessResult p = process::run_process(
        EVG_UPSTREAM_RUNNER, arguments(rq), {}, std::chrono::steady_clock::now() + std::chrono::minutes(2));
    return {p.exit_code, p.output};
}

TEST(RunnerAbi, ALibraryOfOtherHeadersIsRefusedWithBothStamps) {
    const RunnerRun r = run_on(EVG_FIXTURE_OTHER_STAMP);
    EXPECT_EQ(r.exit_code, kExitStale) << r.error;
    EXPECT_NE(
        r.error.find("was built against other evgcheck headers than this program (its ABI stamp: headers "
                     "0123456789abcdef layout 0123456789abcdef (another build); this program's: headers "),
        std::string::npos)
        << r.error;
    EXPECT_NE(r.error.find("its structs are not read: rebuild it with this evgcheck"), std::string::npos)
        << r.error;
}

TEST(RunnerAbi, ALibraryWithoutAStampIsRefused) {
    const RunnerRun r = run_on(EVG_FIXTURE_NO_STAMP);
    EXPECT_EQ(r.exit_code, kExitStale) << r.error;
    EXPECT_NE(r.error.find("carries no ABI stamp: an evgcheck older than this one built it"),
              std::string::npos)
        << r.error;
}

TEST(RunnerAbi, ALibraryWithThisBuildsStampIsRead) {
    const RunnerRun r = run_on(EVG_FIXTURE_OWN_STAMP);
    EXPECT_EQ(r.exit_code, kExitUnusable) << r.error;
    EXPECT_NE(r.error.find("has no instance 0"), std::string::npos) << r.error;
    EXPECT_EQ(r.error.find("ABI stamp"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace evg::upstream::runner
