#include "report_table.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <mutex>
#include <vector>

namespace evg::examples {
namespace {

std::mutex g_mutex;
std::vector<ReportRow>& pending() {
    static std::vector<ReportRow> rows;
    return rows;
}

// Under an exclusive lock on examples-report.md.lock: read the file, merge, replace it in one rename.
void merge_into_file(const std::vector<ReportRow>& rows) {
    const std::string lock_path = std::string(kReportFile) + ".lock";
    const int fd = ::open(lock_path.c_str(), O_CREAT | O_RDWR, 0644);
    if (fd >= 0) ::flock(fd, LOCK_EX);
    std::string existing;
    {
        std::ifstream in(kReportFile);
        existing.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    const std::string tmp = std::string(kReportFile) + ".tmp";
    std::ofstream(tmp, std::ios::trunc) << reports::merge_examples_report(existing, rows);
    std::rename(tmp.c_str(), kReportFile);
    if (fd >= 0) {
        ::flock(fd, LOCK_UN);
        ::close(fd);
    }
}

class ReportEnvironment : public ::testing::Environment {
  public:
    void TearDown() override {
        std::lock_guard<std::mutex> lock(g_mutex);
        if (!pending().empty()) merge_into_file(pending());
        pending().clear();
    }
};

[[maybe_unused]] const auto* const g_env = ::testing::AddGlobalTestEnvironment(new ReportEnvironment);

}  // namespace

void record_row(const ReportRow& row) {
    std::lock_guard<std::mutex> lock(g_mutex);
    pending().push_back(row);
}

}  // namespace evg::examples
