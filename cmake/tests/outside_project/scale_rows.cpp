// A user's program as it would run on an NPU: host code and an AscendC kernel in one file, Catlass's coord
// and layout types on the host side. Scales each row of an m x n matrix by its row number; prints "Compare
// success." when the result read back is right, and exits 1 otherwise.
#include <acl/acl.h>

#include <cstdio>
#include <vector>

#include "catlass/gemm_coord.hpp"
#include "catlass/layout/layout.hpp"

using namespace Catlass;

namespace {

constexpr uint32_t kCols = 64;  // one row: 256 bytes, 8 DataBlocks

void scale_rows_kernel(GM_ADDR x, GM_ADDR y, uint32_t rows) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * kCols * sizeof(float));
    AscendC::LocalTensor<float> in = buf.Get<float>();
    AscendC::LocalTensor<float> out = in[kCols];
    AscendC::GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
    for (uint32_t r = AscendC::GetBlockIdx(); r < rows; r += AscendC::GetBlockNum() * 2) {
        AscendC::DataCopy(in, gx[r * kCols], kCols);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::Muls(out, in, static_cast<float>(r), kCols);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::DataCopy(gy[r * kCols], out, kCols);
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
        AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
    }
}

}  // namespace

int main() {
    const GemmCoord shape{24, kCols, 1};
    auto tag = layout::RowMajor::MakeLayout<float>(shape.m(), shape.n());
    const size_t len = tag.Capacity();
    std::vector<float> hx(len, 1.5f), hy(len, 0.0f);
    aclrtStream stream = nullptr;
    if (aclInit(nullptr) != ACL_ERROR_NONE || aclrtCreateStream(&stream) != ACL_ERROR_NONE) return 2;
    void *dx = nullptr, *dy = nullptr;
    aclrtMalloc(&dx, len * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dy, len * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, len * sizeof(float), hx.data(), len * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
    auto x = static_cast<GM_ADDR>(dx), y = static_cast<GM_ADDR>(dy);
    const uint32_t rows = shape.m();
    evg::acl::launch(stream, 4, evg::hw::KernelType::mix_aic_1_2, [=] {
        if ASCEND_IS_AIV {
            scale_rows_kernel(x, y, rows);
        }
    });
    const aclError sync = aclrtSynchronizeStream(stream);
    aclrtMemcpy(hy.data(), len * sizeof(float), dy, len * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
    size_t wrong = 0;
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < kCols; ++c) wrong += hy[r * kCols + c] != 1.5f * static_cast<float>(r);
    aclrtFree(dx);
    aclrtFree(dy);
    aclrtDestroyStream(stream);
    aclFinalize();
    if (sync != ACL_ERROR_NONE || wrong != 0) {
        std::printf("Compare failed: %zu wrong elements, aclrtSynchronizeStream returned %d\n", wrong, sync);
        return 1;
    }
    std::printf("Compare success.\n");
    return 0;
}
