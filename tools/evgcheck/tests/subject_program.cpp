// A small host program with one AIV kernel, written as a Catlass example program is (ACL calls, a golden
// comparison that prints "Compare success."), for `evgcheck run-program`'s tests (cli_test.cpp):
//   subject_program [clean|racy|twice|rewait|vchain|crash|hang|small|nocopy|halfstore|nolaunch|fail]
// clean: one launch, correct and clean; racy: the vector op does not wait for its input copy (a race the
// checkers report; the numbers are still right in order); twice: two clean launches; rewait: one launch that
// scales in two rounds and hands each load over twice, the second wait ordering nothing (clean, except for
// the opt-in checker redundant-waits); vchain: on Ascend950, scales in two dependent vector steps with no
// PipeBarrier<PIPE_V> between them (clean there, except for the opt-in checker portable-v-order); nolaunch:
// crash: the kernel writes through a bad pointer after its vector step (SIGSEGV); hang: the kernel spins in
// its scalar code after its vector step, never ending; small: Y is allocated half as large as the kernel
// stores (an out-of-bounds store into dy); nocopy: the host never copies X to dx; halfstore: the kernel
// stores only the first half of Y, and the host copies all of it back; nolaunch: prints "Compare success."
// without launching anything; fail: exits 3 after a clean launch.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"

namespace {

using namespace AscendC;

constexpr uint32_t kN = 256;

// The kernels' buffers: two rows of kN floats in UB (t, t[kN]), X and Y in GM.
struct Buffers {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    LocalTensor<float> t;
    GlobalTensor<float> gx, gy;
    Buffers(GM_ADDR x, GM_ADDR y) {
        pipe.InitBuffer(buf, 2 * kN * sizeof(float));
        t = buf.Get<float>();
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
        gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
    }
};

// The bad pointer of `crash` (not a constant, which the compiler would turn into a trap), and the condition
// `hang` spins on.
volatile uintptr_t g_bad_address = 16;
volatile bool g_spin = true;

enum class Fault { none, crash, hang };

void scale_kernel(GM_ADDR x, GM_ADDR y, bool racy, Fault fault = Fault::none, uint32_t stored = kN) {
    Buffers b(x, y);
    LocalTensor<float>& t = b.t;
    GlobalTensor<float>&gx = b.gx, &gy = b.gy;
    DataCopy(t, gx, kN);
    SetFlag<HardEvent::MTE2_V>(0);
    if (!racy) WaitFlag<HardEvent::MTE2_V>(0);
    Muls(t[kN], t, 3.0f, kN);  // the last instruction before crash and hang (line named by cli_test.cpp)
    if (fault == Fault::crash) *reinterpret_cast<volatile float*>(g_bad_address) = 1.0f;  // NOLINT
    while (fault == Fault::hang && g_spin) {
    }
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gy, t[kN], stored);
    if (racy) WaitFlag<HardEvent::MTE2_V>(0);
}

// Two rounds through one buffer; each load is handed over on ids 1 and 0, and V waits on 0, then on 1.
void rewait_kernel(GM_ADDR x, GM_ADDR y) {
    Buffers b(x, y);
    LocalTensor<float>& t = b.t;
    GlobalTensor<float>&gx = b.gx, &gy = b.gy;
    for (int round = 0; round < 2; ++round) {
        if (round > 0) {
            WaitFlag<HardEvent::V_MTE2>(0);
            WaitFlag<HardEvent::MTE3_V>(0);
        }
        DataCopy(t, gx, kN);
        SetFlag<HardEvent::MTE2_V>(1);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(1);
        Muls(t[kN], t, 3.0f, kN);
        if (round == 0) SetFlag<HardEvent::V_MTE2>(0);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(gy, t[kN], kN);
        if (round == 0) SetFlag<HardEvent::MTE3_V>(0);
    }
}

// y = (x * 1.5) * 2 in two vector steps; the second reads what the first wrote, with no barrier between.
void vchain_kernel(GM_ADDR x, GM_ADDR y) {
    Buffers b(x, y);
    LocalTensor<float>& t = b.t;
    GlobalTensor<float>&gx = b.gx, &gy = b.gy;
    DataCopy(t, gx, kN);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Muls(t[kN], t, 1.5f, kN);  // the first step (line named by cli_test.cpp)
    Muls(t[kN], t[kN], 2.0f, kN);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gy, t[kN], kN);
}

int check(aclError e, const char* what) {
    if (e != ACL_SUCCESS) std::fprintf(stderr, "%s: aclError %d: %s\n", what, e, aclGetRecentErrMsg());
    return e;
}

}  // namespace

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "clean";
    if (std::strcmp(mode, "nolaunch") == 0) {
        std::puts("Compare success.");
        return 0;
    }
    check(aclInit(nullptr), "aclInit");
    aclrtStream stream = nullptr;
    check(aclrtCreateStream(&stream), "aclrtCreateStream");
    std::vector<float> hx(kN), hy(kN, 0.0f);
    for (uint32_t i = 0; i < kN; ++i) hx[i] = static_cast<float>(i % 17) - 8.0f;
    void *dx = nullptr, *dy = nullptr;
    check(aclrtMalloc(&dx, kN * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    const size_t y_bytes = std::strcmp(mode, "small") == 0 ? kN * sizeof(float) / 2 : kN * sizeof(float);
    check(aclrtMalloc(&dy, y_bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");  // dy (named by cli_test.cpp)
    if (std::strcmp(mode, "nocopy") != 0)
        check(aclrtMemcpy(dx, kN * sizeof(float), hx.data(), kN * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE),
              "aclrtMemcpy");
    const uint32_t stored = std::strcmp(mode, "halfstore") == 0 ? kN / 2 : kN;
    auto x = static_cast<GM_ADDR>(dx), y = static_cast<GM_ADDR>(dy);
    const bool racy = std::strcmp(mode, "racy") == 0, rewait = std::strcmp(mode, "rewait") == 0;
    const bool vchain = std::strcmp(mode, "vchain") == 0;
    const Fault fault = std::strcmp(mode, "crash") == 0  ? Fault::crash
                        : std::strcmp(mode, "hang") == 0 ? Fault::hang
                                                         : Fault::none;
    const int launches = std::strcmp(mode, "twice") == 0 ? 2 : 1;
    for (int l = 0; l < launches; ++l) {
        if (vchain)
            check(evg::acl::launch(
                      stream, 1, evg::hw::KernelType::aiv_only, [&] { vchain_kernel(x, y); },
                      evg::hw::ArchId::Ascend950),
                  "launch");
        else
            check(evg::acl::launch(
                      stream, 1, evg::hw::KernelType::aiv_only,
                      [&] { rewait ? rewait_kernel(x, y) : scale_kernel(x, y, racy, fault, stored); }),
                  "launch");
        check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");
    }
    const size_t y_size = kN * sizeof(float);
    check(aclrtMemcpy(hy.data(), y_size, dy, y_size, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy");  // copy back
    bool same = true;
    for (uint32_t i = 0; i < kN; ++i) same = same && hy[i] == 3.0f * hx[i];
    std::puts(same ? "Compare success." : "Compare failed.");
    check(aclrtFree(dx), "aclrtFree");
    check(aclrtFree(dy), "aclrtFree");
    check(aclrtDestroyStream(stream), "aclrtDestroyStream");
    return std::strcmp(mode, "fail") == 0 ? 3 : 0;
}
