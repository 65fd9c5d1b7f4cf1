// evgcheck-demo: runs a double-buffered AscendC kernel on both chips, correct and with planted faults, and
// prints what the checkers say. The main job until the conformance report exists.
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using namespace AscendC;

struct Fault {
    const char* name;
    bool drop_wait = false, drop_barrier = false, leave_flag = false;
    evg::hw::ViolationKind expect;
};

void kernel(GM_ADDR x, GM_ADDR y, uint32_t total, uint32_t tile, const Fault& f) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * tile * sizeof(half));
    LocalTensor<half> ub = buf.Get<half>();
    LocalTensor<half> in[2] = {ub[0], ub[tile]}, out[2] = {ub[2 * tile], ub[3 * tile]};
    GlobalTensor<half> gx, gy;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x));
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y));
    SetFlag<HardEvent::V_MTE2>(0);
    SetFlag<HardEvent::V_MTE2>(1);
    SetFlag<HardEvent::MTE3_V>(0);
    SetFlag<HardEvent::MTE3_V>(1);
    for (uint32_t t = 0; t * tile < total; ++t) {
        int id = static_cast<int>(t % 2);
        WaitFlag<HardEvent::V_MTE2>(id);
        DataCopy(in[id], gx[t * tile], tile);
        SetFlag<HardEvent::MTE2_V>(id);
        if (!f.drop_wait) WaitFlag<HardEvent::MTE2_V>(id);
        WaitFlag<HardEvent::MTE3_V>(id);
        Muls(out[id], in[id], half(2.0f), static_cast<int32_t>(tile));
        if (!f.drop_barrier) PipeBarrier<PIPE_V>();
        Adds(out[id], out[id], half(1.0f), static_cast<int32_t>(tile));
        SetFlag<HardEvent::V_MTE2>(id);
        SetFlag<HardEvent::V_MTE3>(id);
        WaitFlag<HardEvent::V_MTE3>(id);
        DataCopy(gy[t * tile], out[id], tile);
        SetFlag<HardEvent::MTE3_V>(id);
    }
    WaitFlag<HardEvent::V_MTE2>(0);
    WaitFlag<HardEvent::V_MTE2>(1);
    WaitFlag<HardEvent::MTE3_V>(0);
    if (!f.leave_flag) WaitFlag<HardEvent::MTE3_V>(1);
    if (f.drop_wait)
        for (uint32_t t = 0; t * tile < total; ++t) WaitFlag<HardEvent::MTE2_V>(static_cast<int>(t % 2));
}

}  // namespace

int main(int argc, char** argv) {
    std::string json_path = argc > 1 ? argv[1] : "evgcheck-demo-report.json";
    const Fault faults[] = {
        {"correct", false, false, false, evg::hw::ViolationKind::race},
        {"WaitFlag<MTE2_V> removed", true, false, false, evg::hw::ViolationKind::race},
        {"PipeBarrier<PIPE_V> removed", false, true, false, evg::hw::ViolationKind::race},
        {"last WaitFlag<MTE3_V>(1) removed", false, false, true, evg::hw::ViolationKind::flag_left_set},
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
                kernel(static_cast<GM_ADDR>(x), static_cast<GM_ADDR>(y), total, tile, f);
            });
            bool is_correct = std::string(f.name) == "correct";
            bool barrier_on_950 = f.drop_barrier && arch == evg::hw::ArchId::Ascend950;  // V is ordered there
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
