// The trace file (trace_file.hpp): a launch written by one side reads back equal, instruction by instruction
// and access by access, and gives the same timeline; damaged files are refused with the file named.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "evg/hw/device.hpp"
#include "evg/hw/error.hpp"
#include "evg/hw/trace_file.hpp"
#include "test_kernels.hpp"

namespace evg::hw::testing {
namespace {

using namespace AscendC;

std::string temp_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("evg_trace_file_test_" + name)).string();
}

// A small double-buffered AIV kernel: copies in, a vector op, copies out, with flags between the pipes.
LaunchRecord record_of_a_run() {
    Config c;
    c.arch = ArchId::Ascend950;
    c.trace_accesses = true;
    Device dev(c);
    constexpr uint32_t kHalves = 1024;
    void* x = dev.malloc(kHalves * 2, "X");
    void* y = dev.malloc(kHalves * 2, "Y");
    dev.copy_to_device(x, std::vector<uint8_t>(kHalves * 2, 1).data(), kHalves * 2);
    const Report& report = dev.launch(2, KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kHalves * 2);
        LocalTensor<half> ub = buf.Get<half>();
        GlobalTensor<half> gx, gy;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x));
        gy.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y));
        const uint32_t half_n = kHalves / 2, off = GetBlockIdx() * half_n;
        DataCopy(ub, gx[off], half_n);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        Adds(ub, ub, half(1.0f), half_n);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(gy[off], ub, half_n);
    });
    EXPECT_TRUE(report.clean()) << report.text();
    LaunchRecord r;
    r.launch = {ArchId::Ascend950, 2, KernelType::aiv_only};
    r.trace = dev.take_last_trace();
    r.node_labels = {"%0 AccLoad", "%1 Adds"};
    return r;
}

TEST(TraceFile, ALaunchReadsBackEqual) {
    const LaunchRecord w = record_of_a_run();
    ASSERT_GT(w.trace.size(), 10u);
    const std::string path = temp_path("roundtrip.bin");
    {
        std::ofstream out(path, std::ios::binary);
        write_trace_file_header(out);
        write_launch_record(out, w);
        write_launch_record(out, w);  // two launches in one file
    }
    const std::vector<LaunchRecord> got = read_trace_file(path);
    ASSERT_EQ(got.size(), 2u);
    for (const LaunchRecord& r : got) {
        EXPECT_EQ(r.launch.arch, w.launch.arch);
        EXPECT_EQ(r.launch.block_dim, w.launch.block_dim);
        EXPECT_EQ(r.launch.type, w.launch.type);
        EXPECT_EQ(r.node_labels, w.node_labels);
        ASSERT_EQ(r.trace.size(), w.trace.size());
        size_t accesses = 0;
        for (size_t i = 0; i < w.trace.size(); ++i) {
            const TraceEntry &a = w.trace[i], &b = r.trace[i];
            EXPECT_EQ(a.op(), b.op()) << i;
            EXPECT_EQ(a.site().str(), b.site().str()) << i;
            EXPECT_EQ(a.id, b.id);
            EXPECT_EQ(a.core, b.core);
            EXPECT_EQ(a.pipe, b.pipe);
            EXPECT_EQ(a.kind, b.kind);
            EXPECT_EQ(a.event, b.event);
            EXPECT_EQ(a.event_id, b.event_id);
            EXPECT_EQ(a.matched, b.matched);
            const auto wa = w.trace.accesses(i), ra = r.trace.accesses(i);
            ASSERT_EQ(wa.size(), ra.size()) << i;
            for (size_t k = 0; k < wa.size(); ++k) {
                EXPECT_EQ(wa[k].begin, ra[k].begin);
                EXPECT_EQ(wa[k].end, ra[k].end);
                EXPECT_EQ(wa[k].write, ra[k].write);
                EXPECT_EQ(wa[k].kind, ra[k].kind);
            }
            accesses += wa.size();
        }
        EXPECT_GT(accesses, 0u);
        // The cycle model sees the same run.
        const timing::Timeline tw = timing::simulate(w.trace, w.launch),
                               tr = timing::simulate(r.trace, r.launch);
        EXPECT_EQ(tw.summary.total, tr.summary.total);
        EXPECT_GT(tw.summary.total, 0u);
    }
    std::filesystem::remove(path);
}

void expect_refused(const std::string& path, const std::string& words) {
    try {
        (void)read_trace_file(path);
        ADD_FAILURE() << path << " was read";
    } catch (const HostError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(path), std::string::npos) << what;
        EXPECT_NE(what.find(words), std::string::npos) << what;
    }
}

TEST(TraceFile, DamagedFilesAreRefusedNamingTheFile) {
    expect_refused(temp_path("missing.bin"), "cannot open");
    const std::string path = temp_path("damaged.bin");
    std::ofstream(path) << "not a trace";
    expect_refused(path, "not an evgcheck trace file");
    {
        std::ofstream out(path, std::ios::binary);
        write_trace_file_header(out);
        write_launch_record(out, record_of_a_run());
    }
    const auto full = std::filesystem::file_size(path);
    std::filesystem::resize_file(path, full - 7);
    expect_refused(path, "cut short");
    std::filesystem::remove(path);
}

}  // namespace
}  // namespace evg::hw::testing
