// The ACL host shim: allocation, copies, launches, and a synchronise that fails on violations.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "acl/acl.h"
#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using namespace AscendC;

// As Catlass's example programs define it: prints a failing call and goes on.
#define ACL_CHECK(status)                                                                \
    do {                                                                                 \
        aclError evg_error_ = (status);                                                  \
        if (evg_error_ != ACL_ERROR_NONE) {                                              \
            std::fprintf(stderr, "%s:%d aclError:%d\n", __FILE__, __LINE__, evg_error_); \
        }                                                                                \
    } while (0)

void scale_kernel(GM_ADDR x, GM_ADDR y, bool forget_wait) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
    DataCopy(t, gx, 64);
    SetFlag<HardEvent::MTE2_V>(0);
    if (!forget_wait) WaitFlag<HardEvent::MTE2_V>(0);
    Muls(t[64], t, 3.0f, 64);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gy, t[64], 64);
    if (forget_wait) WaitFlag<HardEvent::MTE2_V>(0);
}

struct Acl : ::testing::Test {
    void SetUp() override { evg::hw::reset_device(); }
};

TEST_F(Acl, HostCodeRunsAKernelAndReadsTheResult) {
    ACL_CHECK(aclInit(nullptr));
    ACL_CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    std::vector<float> hx(64), hy(64, 0.0f);
    for (int i = 0; i < 64; ++i) hx[static_cast<size_t>(i)] = static_cast<float>(i) - 10.0f;
    void *dx = nullptr, *dy = nullptr;
    ASSERT_EQ(aclrtMalloc(&dx, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&dy, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(dx, 256, hx.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    auto x = static_cast<GM_ADDR>(dx), y = static_cast<GM_ADDR>(dy);
    ASSERT_EQ(evg::acl::launch(stream, 1, evg::hw::KernelType::aiv_only, [&] { scale_kernel(x, y, false); }),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(hy.data(), 256, dy, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(hy[static_cast<size_t>(i)], 3.0f * hx[static_cast<size_t>(i)]);
    EXPECT_EQ(aclrtFree(dx), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(dy), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(Acl, SynchronizeFailsAndWritesTheJsonReportOnViolations) {
    std::string path = ::testing::TempDir() + "evg_acl_report.json";
    setenv("EVG_REPORT", path.c_str(), 1);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    void *dx = nullptr, *dy = nullptr;
    aclrtMalloc(&dx, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dy, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    std::vector<float> hx(64, 1.0f);
    aclrtMemcpy(dx, 256, hx.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE);
    auto x = static_cast<GM_ADDR>(dx), y = static_cast<GM_ADDR>(dy);
    evg::acl::launch(stream, 1, evg::hw::KernelType::aiv_only, [&] { scale_kernel(x, y, true); });
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_KERNEL_CHECK);
    unsetenv("EVG_REPORT");
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_NE(ss.str().find("\"kind\": \"race\""), std::string::npos) << ss.str();
    aclrtDestroyStream(stream);
}

// EVG_REPORT holds the launches synchronised while it is set: a process that writes no report file keeps no
// report (a property run synchronises tens of thousands of launches).
TEST_F(Acl, TheReportFileHoldsTheLaunchesSynchronisedWhileItIsSet) {
    unsetenv("EVG_REPORT");
    const std::string path = ::testing::TempDir() + "evg_acl_report_while_set.json";
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    void *dx = nullptr, *dy = nullptr;
    aclrtMalloc(&dx, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dy, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    std::vector<float> hx(64, 1.0f);
    aclrtMemcpy(dx, 256, hx.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE);
    auto x = static_cast<GM_ADDR>(dx), y = static_cast<GM_ADDR>(dy);
    const auto launch_and_sync = [&] {
        ASSERT_EQ(
            evg::acl::launch(stream, 1, evg::hw::KernelType::aiv_only, [&] { scale_kernel(x, y, false); }),
            ACL_SUCCESS);
        ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    };
    // The reports in the file: the process's launches synchronised while it was set, earlier tests' too.
    const auto reports_in_file = [&] {
        std::ifstream in(path);
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string text = ss.str();
        size_t n = 0;
        for (size_t at = text.find("\"stats\""); at != std::string::npos; at = text.find("\"stats\"", at + 1))
            ++n;
        return n;
    };
    setenv("EVG_REPORT", path.c_str(), 1);
    launch_and_sync();
    const size_t before = reports_in_file();
    unsetenv("EVG_REPORT");
    launch_and_sync();
    launch_and_sync();
    setenv("EVG_REPORT", path.c_str(), 1);
    launch_and_sync();
    unsetenv("EVG_REPORT");
    EXPECT_GE(before, 1u);
    EXPECT_EQ(reports_in_file(),
              before + 1);  // the two launches synchronised while it was unset are not kept
    aclrtFree(dx);
    aclrtFree(dy);
    aclrtDestroyStream(stream);
}

TEST_F(Acl, MisuseReturnsErrorsNotCrashes) {
    void* p = nullptr;
    EXPECT_NE(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_NE(aclrtFree(reinterpret_cast<void*>(0x1234)), ACL_SUCCESS);
    float h[4] = {};
    aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    EXPECT_NE(aclrtMemcpy(p, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);  // beyond the allocation
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not inside one GM allocation"), std::string::npos);
    EXPECT_NE(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
}

}  // namespace

namespace {

// A GM buffer is named by the variable its aclrtMalloc call stores the pointer in, however the address is
// taken; findings name it so and describe it once; a pointer passed on, with no address taken, gives the
// call's line; two live buffers of one name are told apart.
TEST_F(Acl, BuffersAreNamedAsTheHostCodeNamesThem) {
    void *deviceX = nullptr, *deviceY = nullptr, *deviceZ = nullptr;
    void** passed = &deviceZ;
    // deviceX's call is broken over two lines, inside the macro. The buffer is named with the line the
    // compiler gives the call: GCC the macro's line, clang the line the call is spelled on.
    const int macro_line = __LINE__ + 1;
    ACL_CHECK(
        aclrtMalloc((void**)&deviceX, 256, ACL_MEM_MALLOC_HUGE_FIRST));  // NOLINT(google-readability-casting)
#if defined(__clang__)
    const int line = macro_line + 1;
#else
    const int line = macro_line;
#endif
    const int y_line = __LINE__ + 1;
    ACL_CHECK(aclrtMalloc(reinterpret_cast<void**>(&deviceY), 128, ACL_MEM_MALLOC_HUGE_FIRST));
    const int z_line = __LINE__ + 1;
    ACL_CHECK(aclrtMalloc(passed, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    std::vector<void*> loop(2);
    for (void*& p : loop) ACL_CHECK(aclrtMalloc(&p, 32, ACL_MEM_MALLOC_HUGE_FIRST));
    auto name = [](void* p) { return evg::hw::device().find(p)->mem->name(); };
    auto origin = [](void* p) { return evg::hw::device().find(p)->mem->origin(); };
    EXPECT_EQ(name(deviceX), "deviceX");
    EXPECT_EQ(origin(deviceX), "aclrtMalloc at acl_shim_test.cpp:" + std::to_string(line));
    EXPECT_EQ(name(deviceY), "deviceY");
    EXPECT_EQ(name(deviceZ), "the GM buffer of acl_shim_test.cpp:" + std::to_string(z_line));
    EXPECT_EQ(name(loop[0]), "p");
    EXPECT_EQ(name(loop[1]), "p#2");

    // The kernel stores 256 bytes into deviceY's 128: the finding names deviceY, and the report describes it.
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(deviceX, 256, std::vector<float>(64, 1.0f).data(), 256, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    auto x = static_cast<GM_ADDR>(deviceX), y = static_cast<GM_ADDR>(deviceY);
    ASSERT_EQ(evg::acl::launch(stream, 1, evg::hw::KernelType::aiv_only, [&] { scale_kernel(x, y, false); }),
              ACL_SUCCESS);
    const evg::hw::Report& r = evg::hw::device().last_report();
    const evg::hw::Violation* v = r.first(evg::hw::ViolationKind::out_of_bounds);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("GM bytes [0, 256) of deviceY, which has 128 B"), std::string::npos)
        << v->message;
    ASSERT_EQ(r.buffers.size(), 1u) << r.text();
    EXPECT_EQ(r.buffers[0].name, "deviceY");
    EXPECT_NE(r.text().find("  GM buffer deviceY: 128 bytes, aclrtMalloc at acl_shim_test.cpp:" +
                            std::to_string(y_line) + "\n"),
              std::string::npos)
        << r.text();
    EXPECT_NE(r.json().find("\"origin\": \"aclrtMalloc at acl_shim_test.cpp:"), std::string::npos);
    (void)aclrtSynchronizeStream(stream);

    // A host copy past a buffer's end names it.
    std::vector<float> back(64);
    ASSERT_NE(aclrtMemcpy(back.data(), 256, deviceY, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_NE(std::string(aclGetRecentErrMsg())
                  .find("bytes [0, 256) of deviceY (128 bytes, aclrtMalloc at "
                        "acl_shim_test.cpp:"),
              std::string::npos)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

// An address outside every allocation is placed against the nearest buffer.
TEST_F(Acl, AStrayAddressIsPlacedAgainstTheNearestBuffer) {
    void* deviceX = nullptr;
    ACL_CHECK(aclrtMalloc(&deviceX, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    const auto* past = static_cast<const char*>(deviceX) + 4096 + 64;
    EXPECT_EQ(evg::hw::device().place_of_stray(past).rfind(
                  "64 bytes past the end of deviceX (4096 bytes, aclrtMalloc "
                  "at acl_shim_test.cpp:",
                  0),
              0u)
        << evg::hw::device().place_of_stray(past);
    evg::hw::reset_device();
    EXPECT_EQ(evg::hw::device().place_of_stray(past), "outside every GM allocation (there is none)");
}

// Copies X to Y through UB, `stored` floats of 64.
void copy_kernel(GM_ADDR x, GM_ADDR y, uint32_t stored) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
    DataCopy(t, gx, 64);
    SetFlag<HardEvent::MTE2_MTE3>(0);
    WaitFlag<HardEvent::MTE2_MTE3>(0);
    DataCopy(gy, t, stored);
}

// Never-written bytes that came from a GM buffer nobody wrote name that buffer first: straight from the load
// (the copy kernel), or as the likely cause when they went through vector instructions (the scale kernel).
// With the host's copy, both are clean.
TEST_F(Acl, ANeverWrittenInputIsNamedAsTheCause) {
    for (const bool copied : {false, true}) {
        evg::hw::reset_device();
        void *deviceX = nullptr, *deviceY = nullptr;
        const int line = __LINE__ + 1;
        ACL_CHECK(aclrtMalloc(&deviceX, 256, ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_CHECK(aclrtMalloc(&deviceY, 256, ACL_MEM_MALLOC_HUGE_FIRST));
        if (copied)
            ACL_CHECK(aclrtMemcpy(deviceX, 256, std::vector<float>(64, 2.0f).data(), 256,
                                  ACL_MEMCPY_HOST_TO_DEVICE));
        aclrtStream stream = nullptr;
        ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
        auto x = static_cast<GM_ADDR>(deviceX), y = static_cast<GM_ADDR>(deviceY);
        ASSERT_EQ(evg::acl::launch(stream, 1, evg::hw::KernelType::aiv_only, [&] { copy_kernel(x, y, 64); }),
                  ACL_SUCCESS);
        const evg::hw::Report direct = evg::hw::device().last_report();
        ASSERT_EQ(
            evg::acl::launch(stream, 1, evg::hw::KernelType::aiv_only, [&] { scale_kernel(x, y, false); }),
            ACL_SUCCESS);
        const evg::hw::Report through = evg::hw::device().last_report();
        (void)aclrtSynchronizeStream(stream);
        ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
        if (copied) {
            EXPECT_TRUE(direct.clean()) << direct.text();
            EXPECT_TRUE(through.clean()) << through.text();
            continue;
        }
        const std::string never =
            "deviceX was never written: no aclrtMemcpy or aclrtMemset reached it, and no "
            "kernel stored to it (256 bytes, aclrtMalloc at acl_shim_test.cpp:" +
            std::to_string(line) + ")";
        const evg::hw::Violation* d = direct.first(evg::hw::ViolationKind::uninit_to_gm);
        ASSERT_NE(d, nullptr) << direct.text();
        EXPECT_EQ(d->message.rfind(never + "; #1 DataCopy GM->UB at acl_shim_test.cpp:", 0), 0u)
            << d->message;
        EXPECT_NE(
            d->message.find("loaded bytes [0, 256) of it into UB[AIV 0] [0, 256). DataCopy UB->GM stores "
                            "never-written bytes to GM: byte 0 of UB[AIV 0] (copied to deviceY offset 0)"),
            std::string::npos)
            << d->message;
        const evg::hw::Violation* t = through.first(evg::hw::ViolationKind::uninit_to_gm);
        ASSERT_NE(t, nullptr) << through.text();
        EXPECT_EQ(t->message.rfind("Likely cause: " + never +
                                       "; AIV 0 loaded bytes [0, 256) of it with #1 DataCopy "
                                       "GM->UB at acl_shim_test.cpp:",
                                   0),
                  0u)
            << t->message;
    }
}

// A device-to-host copy of bytes no kernel stored is a host finding (uninit_to_host) naming the buffer, the
// copy's line and the never-written range, printed and kept in EVG_REPORT as a host report; the copy still
// happens. A kernel that stores all of Y gives none.
TEST_F(Acl, UnwrittenOutputCopiedToTheHost) {
    const std::string path = ::testing::TempDir() + "evg_host_report.json";
    setenv("EVG_REPORT", path.c_str(), 1);
    for (const uint32_t stored : {40u, 64u}) {
        evg::hw::reset_device();
        std::remove(path.c_str());
        void *deviceX = nullptr, *deviceY = nullptr;
        ACL_CHECK(aclrtMalloc(&deviceX, 256, ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_CHECK(aclrtMalloc(&deviceY, 256, ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_CHECK(
            aclrtMemcpy(deviceX, 256, std::vector<float>(64, 2.0f).data(), 256, ACL_MEMCPY_HOST_TO_DEVICE));
        aclrtStream stream = nullptr;
        ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
        auto x = static_cast<GM_ADDR>(deviceX), y = static_cast<GM_ADDR>(deviceY);
        ASSERT_EQ(
            evg::acl::launch(stream, 1, evg::hw::KernelType::aiv_only, [&] { copy_kernel(x, y, stored); }),
            ACL_SUCCESS);
        ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
        std::vector<float> back(64, -1.0f);
        ::testing::internal::CaptureStderr();
        const int line = __LINE__ + 1;
        EXPECT_EQ(aclrtMemcpy(back.data(), 256, deviceY, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        const std::string err = ::testing::internal::GetCapturedStderr();
        EXPECT_EQ(back[0], 2.0f);  // the copy happened
        std::ifstream in(path);
        std::stringstream json;
        json << in.rdbuf();
        if (stored == 64) {
            EXPECT_EQ(err, "");
        } else {
            EXPECT_NE(
                err.find(
                    "evgcheck report: host calls, after the launches: 1 error(s), 0 warning(s)\n"
                    "error [uninit_to_host] acl_shim_test.cpp:" +
                    std::to_string(line) +
                    ": aclrtMemcpy copies 96 byte(s) of deviceY to the host that hold no written value "
                    "(no host copy wrote them, and no kernel stored a written value there): of its bytes "
                    "[0, 256), those in [160, 256), the first at byte 160."),
                std::string::npos)
                << err;
            EXPECT_NE(err.find("  GM buffer deviceY: 256 bytes, aclrtMalloc at acl_shim_test.cpp:"),
                      std::string::npos)
                << err;
            EXPECT_NE(json.str().find("\"host\": true"), std::string::npos) << json.str();
            EXPECT_NE(json.str().find("\"kind\": \"uninit_to_host\""), std::string::npos) << json.str();
        }
        ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    }
    unsetenv("EVG_REPORT");
}

}  // namespace
