// A checker finds the same with or without the others: each checker of the registry, on alone, reports
// exactly what it reports in the same launch with every checker on. What the launch keeps for its checkers
// depends on which run (a launch none of whose checkers reads the happens-before clocks keeps none:
// Checker::kClocks), so a checker that reads them without saying so would find races or ordering faults that
// are not there when it runs alone.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "evg/hw/checker.hpp"
#include "test_kernels.hpp"

namespace evg::hw::testing {
namespace {

using namespace AscendC;

// Each AIV stores its half of X and signals the AIC (CrossCoreSetFlag, mode 2), which waits and reads X into
// L1; without the wait the read races with the stores across cores.
Report run_cross_core(const Config& cfg, bool wait) {
    Device dev(cfg);
    void* x = dev.malloc(512, "X");
    auto xp = static_cast<GM_ADDR>(x);
    return dev.launch(1, KernelType::mix_aic_1_2, [&] {
        GlobalTensor<float> gx;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(xp));
        if ASCEND_IS_AIC {
            LocalTensor<float> l1(TPosition::A1, 0, 128);
            if (wait) CrossCoreWaitFlag<2, PIPE_MTE2>(0);
            DataCopy(l1, gx, 128);
        } else {
            TPipe pipe;
            TBuf<TPosition::VECCALC> buf;
            pipe.InitBuffer(buf, 256);
            LocalTensor<float> a = buf.Get<float>();
            Duplicate(a, 1.0f, 64);
            SetFlag<HardEvent::V_MTE3>(0);
            WaitFlag<HardEvent::V_MTE3>(0);
            DataCopy(gx[64 * GetSubBlockIdx()], a, 64);
            CrossCoreSetFlag<2, PIPE_MTE3>(0);
        }
    });
}

struct Launch {
    std::string name;
    std::function<Report(const Config&)> run;
};

std::vector<Launch> launches() {
    std::vector<Launch> out;
    const std::pair<const char*, DbFaults> db[] = {{"clean", {}},
                                                   {"no MTE2->V wait", {.drop_wait_mte2_v = true}},
                                                   {"no V->MTE3 wait", {.drop_wait_v_mte3 = true}},
                                                   {"no V barrier", {.drop_barrier_v = true}},
                                                   {"a flag left set", {.leave_mte3_v = true}}};
    for (const auto& entry : db) {
        const DbFaults f = entry.second;
        out.push_back({fmt::format("double-buffered, {}", entry.first),
                       [f](const Config& c) { return run_double_buffered(c, 4096, 1024, f).report; }});
    }
    out.push_back({"cross-core, waited", [](const Config& c) { return run_cross_core(c, true); }});
    out.push_back({"cross-core, no wait", [](const Config& c) { return run_cross_core(c, false); }});
    return out;
}

// The findings of checker `finder` in `r`, as text, in the report's order.
std::vector<std::string> found_by(const Report& r, std::string_view finder) {
    std::vector<std::string> out;
    for (const Violation& v : r.violations)
        if (violation_kind_finder(v.kind) == finder)
            out.push_back(fmt::format("{}: {}", violation_kind_name(v.kind), v.message));
    return out;
}

TEST(CheckerAlone, EachCheckerFindsAloneWhatItFindsBesideEveryOther) {
    int findings = 0;
    for (const ArchId arch : kAllArchs)
        for (const uint64_t seed : {uint64_t{0}, uint64_t{7}, uint64_t{1234}})
            for (const Launch& l : launches()) {
                Config all = seed ? adversarial(seed, arch) : Config{};
                all.arch = arch;
                for (const CheckerInfo& info : checker_registry()) all.checks.*info.on = true;
                const Report every = l.run(all);
                for (const CheckerInfo& info : checker_registry()) {
                    Config alone = all;
                    for (const CheckerInfo& other : checker_registry()) alone.checks.*other.on = false;
                    alone.checks.*info.on = true;
                    const std::vector<std::string> want = found_by(every, info.name);
                    findings += static_cast<int>(want.size());
                    EXPECT_EQ(found_by(l.run(alone), info.name), want)
                        << info.name << " alone, " << l.name << ", " << arch_name(arch) << ", seed " << seed;
                }
            }
    // The launches have faults each checker that reads clocks finds: the comparison is not of empty lists.
    EXPECT_GT(findings, 0);
}

}  // namespace
}  // namespace evg::hw::testing
