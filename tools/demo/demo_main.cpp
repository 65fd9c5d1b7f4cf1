// evgcheck-demo: runs a double-buffered AscendC kernel on both chips, correct and with planted faults, and
// prints what the checkers say. The main job until the conformance report exists.
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "ascendc/samples/double_buffered.hpp"
#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using namespace AscendC;

struct Fault {
    const char* name;
    samples::DbFaults faults;
    evg::hw::ViolationKind expect;
};

}  // namespace

int main(int argc, char** argv) {
    std::string json_path = argc > 1 ? argv[1] : "evgcheck-demo-report.json";
    const Fault faults[] = {
        {"correct", {}, evg::hw::ViolationKind::race},
        {"WaitFlag<MTE2_V> removed", {.drop_wait_mte2_v = true}, evg::hw::ViolationKind::race},
        {"PipeBarrier<PIPE_V> removed", {.drop_barrier_v = true}, evg::hw::ViolationKind::race},
        {"last WaitFlag<MTE3_V>(1) removed", {.leave_mte3_v = true}, evg::hw::ViolationKind::flag_left_set},
    };
    constexpr uint32_t total = 8 * 1024, tile = 1024;
    int wrong = 0;
    std::string json = "[\n";
    bool first = true;
    for (evg::hw::ArchId arch : evg::hw::kAllArchs) {
        for (const Fault& f : faults) {
            evg::hw::Config cfg;
            cfg.arch = arch;
            evg::hw::Device dev(cfg);
            std::vector<uint16_t> host(total);
            for (uint32_t i = 0; i < total; ++i)
                host[i] = evg::hw::half(static_cast<float>(i % 50) / 8.0f).bits;
            void* x = dev.malloc(total * 2, "X");
            void* y = dev.malloc(total * 2, "Y");
            dev.copy_to_device(x, host.data(), total * 2);
            auto& r = dev.launch(1, evg::hw::KernelType::aiv_only, [&] {
                samples::double_buffered_kernel(static_cast<GM_ADDR>(x), static_cast<GM_ADDR>(y), total, tile,
                                                f.faults);
            });
            bool is_correct = std::string(f.name) == "correct";
            bool barrier_on_950 =
                f.faults.drop_barrier_v && arch == evg::hw::ArchId::Ascend950;  // V is ordered there
            bool expect_clean = is_correct || barrier_on_950;
            bool ok = expect_clean ? r.clean() : r.count(f.expect) > 0;
            wrong += !ok;
            std::printf(
                "== %s, %s: %s\n%s\n", std::string(evg::hw::arch_name(arch)).c_str(), f.name,
                ok ? (expect_clean ? "clean, as expected" : "fault found, as expected") : "UNEXPECTED",
                r.text().c_str());
            json += fmt::format(
                "{}{{\"arch\": \"{}\", \"case\": \"{}\", \"as_expected\": {}, \"report\": {}}}",
                first ? "" : ",\n", evg::hw::arch_name(arch), f.name, ok ? "true" : "false", r.json());
            first = false;
        }
    }
    json += "\n]\n";
    std::ofstream(json_path) << json;
    std::printf("%d passed, %d failed: demo cases where the checkers said what they should (JSON: %s)\n",
                static_cast<int>(2 * std::size(faults)) - wrong, wrong, json_path.c_str());
    return wrong ? 1 : 0;
}
