#include "report_table.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

#include <fmt/format.h>

namespace evg::examples {
namespace {

std::mutex g_mutex;
std::vector<ReportRow>& pending() {
    static std::vector<ReportRow> rows;
    return rows;
}

constexpr const char* kHeader =
    "| example | arch / dtype / shape / CL | CL | result | UB peak (B) | UB expected (B) | instructions | "
    "violations | comparison |\n"
    "|---|---|---:|---|---:|---:|---:|---|---|\n";

std::string format_row(const ReportRow& r) {
    return fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |", r.example, r.config,
                       r.compute_length, r.pass ? "pass" : "FAIL", r.ub_peak, r.ub_expected, r.instructions,
                       r.violations, r.comparison);
}

// The key of a table line: its first two cells.
std::string key_of(const std::string& line) {
    size_t a = line.find('|', 1);
    if (a == std::string::npos) return {};
    size_t b = line.find('|', a + 1);
    if (b == std::string::npos) return {};
    return line.substr(0, b);
}

void merge_into_file(const std::vector<ReportRow>& rows) {
    const std::string lock_path = std::string(kReportFile) + ".lock";
    int fd = ::open(lock_path.c_str(), O_CREAT | O_RDWR, 0644);
    if (fd >= 0) ::flock(fd, LOCK_EX);
    std::map<std::string, std::string> table;  // sorted by example, then configuration
    {
        std::ifstream in(kReportFile);
        std::string line;
        while (std::getline(in, line))
            if (line.rfind("| Seed", 0) == 0 || line.rfind("| Quant", 0) == 0) table[key_of(line)] = line;
    }
    for (const ReportRow& r : rows) {
        std::string line = format_row(r);
        table[key_of(line)] = line;
    }
    size_t passed = 0;
    for (const auto& [k, line] : table)
        if (line.find("| pass |") != std::string::npos) ++passed;
    const std::string tmp = std::string(kReportFile) + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << "# Seed examples on the model\n\n"
            << "Written by `evg_conformance_examples` (conformance/examples). One row per case: the example, "
               "the\n"
            << "configuration (arch, element type, M/N/K, computeLength), whether every check held (clean "
               "report,\n"
            << "outputs against the oracle, UB peak against UbAccounting), the measured and expected UB "
               "peak, the\n"
            << "instructions issued and the violations the machine reported.\n\n"
            << passed << " of " << table.size() << " cases pass.\n\n"
            << kHeader;
        for (const auto& [k, line] : table) out << line << '\n';
    }
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
