// A user's own program, as a Catlass developer writes one: host code with ACL calls and a golden comparison,
// and an AIV kernel of their own that computes y = (x + 1) * 0.5 with two of Catlass's EVG fusion operations
// (catlass/epilogue/fusion/operations.hpp) instead of AscendC calls. Built with evgcheck_add_program against
// a Catlass checkout, it is the subject of call_chain.sh: an instruction a Catlass header issues for the
// user's line must be told by that line.
//   catlass_helpers [clean|vchain|racy]
// clean: correct on both chips; vchain: no PipeBarrier<PIPE_V> between the two dependent operations
// (Ascend950 keeps its V pipe in order, so this is clean there except for the opt-in checker
// portable-v-order); racy: the first operation does not wait for the copy of x (a race on every chip).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "catlass/epilogue/fusion/operations.hpp"
#include "kernel_operator.h"

namespace {

using namespace AscendC;

constexpr uint32_t kN = 512;

enum class Mode { clean, vchain, racy };

void add_then_halve(GM_ADDR x, GM_ADDR y, Mode mode) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * kN * sizeof(float));
    LocalTensor<float> in = buf.Get<float>();
    LocalTensor<float> out = in[kN];
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));

    DataCopy(in, gx, kN);
    SetFlag<HardEvent::MTE2_V>(0);
    if (mode != Mode::racy) WaitFlag<HardEvent::MTE2_V>(0);
    Catlass::Epilogue::Fusion::Adds<float>{1.0f}(out, kN, in);  // the first operation (call_chain.sh)
    if (mode != Mode::vchain) PipeBarrier<PIPE_V>();
    Catlass::Epilogue::Fusion::Muls<float>{0.5f}(out, kN, out);  // the second (call_chain.sh)
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gy, out, kN);
    if (mode == Mode::racy) WaitFlag<HardEvent::MTE2_V>(0);
}

int check(aclError e, const char* what) {
    if (e != ACL_SUCCESS) std::fprintf(stderr, "%s: aclError %d\n", what, e);
    return e;
}

}  // namespace

int main(int argc, char** argv) {
    const char* arg = argc > 1 ? argv[1] : "clean";
    const Mode mode = std::strcmp(arg, "vchain") == 0 ? Mode::vchain
                      : std::strcmp(arg, "racy") == 0 ? Mode::racy
                                                      : Mode::clean;
    check(aclInit(nullptr), "aclInit");
    aclrtStream stream = nullptr;
    check(aclrtCreateStream(&stream), "aclrtCreateStream");
    std::vector<float> hostX(kN), hostY(kN, 0.0f);
    for (uint32_t i = 0; i < kN; ++i) hostX[i] = static_cast<float>(i % 23) - 11.0f;
    void *deviceX = nullptr, *deviceY = nullptr;
    const size_t bytes = kN * sizeof(float);
    check(aclrtMalloc(&deviceX, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    check(aclrtMalloc(&deviceY, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    check(aclrtMemcpy(deviceX, bytes, hostX.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
    auto x = static_cast<GM_ADDR>(deviceX), y = static_cast<GM_ADDR>(deviceY);
    check(evg::acl::launch(
              stream, 1, evg::hw::KernelType::aiv_only, [&] { add_then_halve(x, y, mode); },
              evg::hw::ArchId::Ascend950),
          "launch");
    check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");
    check(aclrtMemcpy(hostY.data(), bytes, deviceY, bytes, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy");
    bool same = true;
    for (uint32_t i = 0; i < kN; ++i) same = same && hostY[i] == (hostX[i] + 1.0f) * 0.5f;
    std::puts(same ? "Compare success." : "Compare failed.");
    check(aclrtFree(deviceX), "aclrtFree");
    check(aclrtFree(deviceY), "aclrtFree");
    check(aclrtDestroyStream(stream), "aclrtDestroyStream");
    return 0;
}
