#include "report_table.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <string_view>
#include <vector>

#include "locked_file.hpp"

namespace evg::examples {
namespace {

std::mutex g_mutex;
std::vector<reports::ExampleRow>& pending() {
    static std::vector<reports::ExampleRow> rows;
    return rows;
}

class ReportEnvironment : public ::testing::Environment {
  public:
    void TearDown() override {
        std::lock_guard<std::mutex> lock(g_mutex);
        if (!pending().empty())
            rewrite_locked(kReportFile, [](std::string_view existing) {
                return reports::merge_examples_report(existing, pending());
            });
        pending().clear();
    }
};

[[maybe_unused]] const auto* const g_env = ::testing::AddGlobalTestEnvironment(new ReportEnvironment);

}  // namespace

void record_row(const reports::ExampleRow& row) {
    std::lock_guard<std::mutex> lock(g_mutex);
    pending().push_back(row);
}

}  // namespace evg::examples
