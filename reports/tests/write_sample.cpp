// Writes the hand-made sample report (sample_results.hpp, with its planted failure) into the folder given as
// the only argument: the page the headless-Chromium test opens.
#include <iostream>

#include "evg/reports/report.hpp"
#include "sample_results.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: evg_reports_write_sample DIR\n";
        return 2;
    }
    evg::reports::ReportInput in;
    in.results = evg::reports::testing::sample_results();
    in.seconds = 12.4;
    in.archs = {"AtlasA2", "Ascend950"};
    in.command = "evg_reports_write_sample (hand-made results)";
    for (const auto& p : evg::reports::write_all(in, argv[1])) std::cout << p.string() << "\n";
    return 0;
}
