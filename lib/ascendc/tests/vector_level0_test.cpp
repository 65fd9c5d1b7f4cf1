// The level-0 vector API on the model: masks (first-k, bit-wise, counter mode, the register a count form
// leaves), block and repeat strides (0 and overlapping too), masked-off lanes left alone and unwritten, the
// per-block reductions in pairwise order, Brcb, Compare/Select, the parameter and overlap checks, and the
// exact byte ranges a strided instruction reports to the race checker. Expectations are computed here,
// element by element, from the documented semantics.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using namespace AscendC;
using evg::hw::ViolationKind;

constexpr uint32_t kUb = 16384;  // bytes of UB the tests use

// Runs `body` on one AIV with a UB buffer of kUb bytes at UB offset 0.
const evg::hw::Report& run(evg::hw::Device& dev, const std::function<void(TBuf<TPosition::VECCALC>&)>& body) {
    return dev.launch(1, evg::hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kUb);
        body(buf);
    });
}

// Fills t[0, n) from the scalar unit.
template <class T, class F>
void fill(const LocalTensor<T>& t, uint32_t n, F value) {
    for (uint32_t i = 0; i < n; ++i) t.SetValue(i, static_cast<T>(value(i)));
}

template <class T>
std::vector<T> read(const LocalTensor<T>& t, uint32_t n) {
    PipeBarrier<PIPE_ALL>();
    std::vector<T> out(n);
    for (uint32_t i = 0; i < n; ++i) out[i] = t.GetValue(i);
    return out;
}

float a_of(uint32_t i) {
    return static_cast<float>(i % 13) - 6.0f;
}
float b_of(uint32_t i) {
    return static_cast<float>(i % 7) * 0.5f;
}

TEST(Level0, FirstKMaskComputesTheFirstLanesOfEveryRepeatAndLeavesTheRestUnwritten) {
    evg::hw::Device dev;
    std::vector<float> out;
    const auto& r = run(dev, [&](auto& buf) {
        auto a = buf.template Get<float>(), b = a[256], d = a[512];
        fill(a, 128, a_of);
        fill(b, 128, b_of);
        fill(d, 10, [](uint32_t) { return 99.0f; });  // lanes 0..9 of repeat 0 were written before
        Add(d, a, b, 10, 2, BinaryRepeatParams{});
        out = read(d, 74);  // lane 74 = repeat 1 lane 10: never written -> one uninit_read
    });
    for (uint32_t rep = 0; rep < 2; ++rep)
        for (uint32_t k = 0; k < 10; ++k)
            EXPECT_EQ(out[rep * 64 + k], a_of(rep * 64 + k) + b_of(rep * 64 + k));
    // Lanes 10..63 of repeat 0 and 64..73 of repeat 1 were never written: 54 reads of never-written bytes.
    EXPECT_EQ(r.count(ViolationKind::uninit_read), 1u) << r.text();
    EXPECT_NE(r.text().find("(54 occurrences)"), std::string::npos) << r.text();
}

TEST(Level0, BitwiseMaskOnHalfUsesBothWords) {
    evg::hw::Device dev;
    std::vector<half> out;
    const uint64_t mask[2] = {0x8000000000000001ull, 0x1ull};  // lanes 0, 63, 64
    const auto& r = run(dev, [&](auto& buf) {
        auto a = buf.template Get<half>(), d = a[512];
        fill(a, 128, [](uint32_t i) { return half(static_cast<float>(i)); });
        fill(d, 128, [](uint32_t) { return half(-1.0f); });
        Muls(d, a, half(2.0f), mask, 1, UnaryRepeatParams{});
        out = read(d, 128);
    });
    EXPECT_TRUE(r.clean()) << r.text();
    for (uint32_t i = 0; i < 128; ++i) {
        const float want = (i == 0 || i == 63 || i == 64) ? 2.0f * static_cast<float>(i) : -1.0f;
        EXPECT_EQ(out[i].bits, half(want).bits) << i;
    }
}

TEST(Level0, CounterModeCountsElementsAndIgnoresRepeatTime) {
    evg::hw::Device dev;
    std::vector<float> out;
    const auto& r = run(dev, [&](auto& buf) {
        auto a = buf.template Get<float>(), b = a[256], d = a[512];
        fill(a, 192, a_of);
        fill(b, 192, b_of);
        fill(d, 192, [](uint32_t) { return 7.0f; });
        SetMaskCount();
        SetVectorMask<float, MaskMode::COUNTER>(0, 100);
        Sub<float, false>(d, a, b, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
        SetMaskNorm();
        ResetMask();
        out = read(d, 192);
    });
    EXPECT_TRUE(r.clean()) << r.text();
    for (uint32_t i = 0; i < 192; ++i) EXPECT_EQ(out[i], i < 100 ? a_of(i) - b_of(i) : 7.0f) << i;
}

TEST(Level0, ACountFormLeavesNormalModeAndAFullMask) {
    evg::hw::Device dev;
    std::vector<float> out;
    const auto& r = run(dev, [&](auto& buf) {
        auto a = buf.template Get<float>(), d = a[512];
        fill(a, 64, a_of);
        SetVectorMask<float>(0, 0x3);  // two lanes ...
        Adds(d, a, 1.0f, 64);          // ... which the count form replaces by all of them
        PipeBarrier<PIPE_V>();
        Muls<float, false>(d, d, 2.0f, MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
        out = read(d, 64);
    });
    EXPECT_TRUE(r.clean()) << r.text();
    for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(out[i], (a_of(i) + 1.0f) * 2.0f) << i;
}

TEST(Level0, BlockAndRepeatStridesIncludingZero) {
    evg::hw::Device dev;
    std::vector<float> out;
    const auto& r = run(dev, [&](auto& buf) {
        auto a = buf.template Get<float>(), d = a[1024];
        fill(a, 64, a_of);
        fill(d, 512, [](uint32_t) { return -5.0f; });
        // src: block stride 0 (every block re-reads block 0), repeat stride 1 (repeats overlap by 7 blocks);
        // dst: block stride 2, repeat stride 16.
        Abs(d, a, 64, 2, UnaryRepeatParams(2, 0, 16, 1));
        out = read(d, 512);
    });
    EXPECT_TRUE(r.clean()) << r.text();
    std::vector<float> want(512, -5.0f);
    for (uint32_t rep = 0; rep < 2; ++rep)
        for (uint32_t k = 0; k < 64; ++k) {
            const uint32_t src = rep * 8 + k % 8;                         // block 0 of repeat rep, lane k % 8
            const uint32_t dst = rep * 16 * 8 + (k / 8) * 2 * 8 + k % 8;  // block k / 8 at stride 2
            want[dst] = std::fabs(a_of(src));
        }
    for (uint32_t i = 0; i < 512; ++i) EXPECT_EQ(out[i], want[i]) << i;
}

TEST(Level0, CastFollowsTheWiderTypeAndTheMask) {
    evg::hw::Device dev;
    std::vector<half> out;
    const auto& r = run(dev, [&](auto& buf) {
        auto a = buf.template Get<float>();
        auto d = buf.template Get<half>()[1024];
        fill(a, 128, [](uint32_t i) { return static_cast<float>(i) + 0.25f; });
        fill(d, 128, [](uint32_t) { return half(0.0f); });
        Cast(d, a, RoundMode::CAST_RINT, 40, 2, UnaryRepeatParams(1, 1, 4, 8));
        out = read(d, 128);
    });
    EXPECT_TRUE(r.clean()) << r.text();
    for (uint32_t i = 0; i < 128; ++i) {
        const bool on = i % 64 < 40;
        EXPECT_EQ(out[i].bits, half(on ? static_cast<float>(i) + 0.25f : 0.0f).bits) << i;
    }
}

// The pairwise tree, written out: level by level over adjacent pairs.
float pairwise(std::vector<float> v) {
    while (v.size() > 1) {
        std::vector<float> next;
        for (size_t i = 0; i < v.size(); i += 2) next.push_back(v[i] + v[i + 1]);
        v = next;
    }
    return v[0];
}

TEST(Level0, BlockReduceSumAddsPairwisePerBlock) {
    evg::hw::Device dev;
    std::vector<float> out;
    // Order-sensitive data: 1e8 and 1 do not associate in float.
    const auto val = [](uint32_t i) {
        const float v[8] = {1e8f, 1.0f, -1e8f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f};
        const uint32_t group = i / 8;  // whole groups of 8
        return v[i % 8] * static_cast<float>(1 + group);
    };
    const auto& r = run(dev, [&](auto& buf) {
        auto a = buf.template Get<float>(), d = a[1024];
        fill(a, 128, val);
        BlockReduceSum<float>(d, a, 2, 64, 1, 1, 8);
        out = read(d, 16);
    });
    EXPECT_TRUE(r.clean()) << r.text();
    for (uint32_t blk = 0; blk < 16; ++blk) {
        std::vector<float> v;
        for (uint32_t i = 0; i < 8; ++i) v.push_back(val(blk * 8 + i));
        EXPECT_EQ(out[blk], pairwise(v)) << blk;
    }
    float sequential = 0;
    for (uint32_t i = 0; i < 8; ++i) sequential += val(i);
    EXPECT_NE(pairwise({val(0), val(1), val(2), val(3), val(4), val(5), val(6), val(7)}), sequential)
        << "the data must tell the orders apart";
}

TEST(Level0, BlockReduceSumSaturatesHalfAtEachStep) {
    evg::hw::Device dev;
    std::vector<half> out;
    const auto& r = run(dev, [&](auto& buf) {
        auto a = buf.template Get<half>(), d = a[1024];
        const float v[4] = {60000.0f, 60000.0f, -30000.0f, 100.0f};
        fill(a, 128, [&](uint32_t i) { return half(i < 4 ? v[i] : 0.0f); });
        BlockReduceMax<half>(d[8], a, 1, 128, 1, 1, 8);
        BlockReduceSum<half>(d, a, 1, 128, 1, 1, 8);
        out = read(d, 16);
    });
    EXPECT_TRUE(r.clean()) << r.text();
    // 60000 + 60000 saturates at 65504; -30000 + 100 = -29900, rounded to half; then their sum, rounded.
    const float right = evg::hw::to_float(half(-30000.0f + 100.0f));
    EXPECT_EQ(out[0].bits, half(65504.0f + right).bits);
    EXPECT_EQ(out[8].bits, half(60000.0f).bits);
    for (uint32_t b = 1; b < 8; ++b) EXPECT_EQ(out[b].bits, half(0.0f).bits);
}

TEST(Level0, WholeAndRepeatReduceGiveOneResultPerRepeat) {
    evg::hw::Device dev;
    std::vector<float> out;
    const auto& r = run(dev, [&](auto& buf) {
        auto a = buf.template Get<float>(), d = a[1024];
        fill(a, 256, a_of);
        RepeatReduceSum<float>(d, a, 2, 64, 0, 1, 1, 8);
        WholeReduceMax<float>(d[2], a, 16, 2, 1, 1, 16, ReduceOrder::ORDER_ONLY_VALUE);
        out = read(d, 4);
    });
    EXPECT_TRUE(r.clean()) << r.text();
    for (uint32_t rep = 0; rep < 2; ++rep) {
        std::vector<float> v;
        float mx = -1e30f;
        for (uint32_t k = 0; k < 64; ++k) v.push_back(a_of(rep * 64 + k));
        for (uint32_t k = 0; k < 16; ++k) mx = std::max(mx, a_of(rep * 128 + k));
        EXPECT_EQ(out[rep], pairwise(v));
        EXPECT_EQ(out[2 + rep], mx);
    }
}

TEST(Level0, BrcbSpreadsEightElementsOverEightBlocks) {
    evg::hw::Device dev;
    std::vector<uint32_t> out;
    const auto& r = run(dev, [&](auto& buf) {
        auto s = buf.template Get<uint32_t>(), d = s[64];
        fill(s, 16, [](uint32_t i) { return i + 1; });
        Brcb(d, s, 2, BrcbRepeatParams(1, 8));
        out = read(d, 128);
    });
    EXPECT_TRUE(r.clean()) << r.text();
    for (uint32_t i = 0; i < 128; ++i) EXPECT_EQ(out[i], i / 8 + 1) << i;
}

TEST(Level0, CompareScalarThenSelectTensorScalar) {
    evg::hw::Device dev;
    std::vector<float> out;
    const auto& r = run(dev, [&](auto& buf) {
        auto a = buf.template Get<float>(), d = a[512];
        auto bits = buf.template Get<uint8_t>()[4096];
        fill(a, 64, a_of);
        CompareScalar(bits, a, 0.0f, CMPMODE::LE, 64);
        PipeBarrier<PIPE_V>();
        Select(d, bits, a, 100.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
        out = read(d, 64);
    });
    EXPECT_TRUE(r.clean()) << r.text();
    for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(out[i], a_of(i) <= 0.0f ? a_of(i) : 100.0f) << i;
}

TEST(Level0, AxpyAndMulAddDstAccumulateIntoDst) {
    evg::hw::Device dev;
    std::vector<float> out;
    const auto& r = run(dev, [&](auto& buf) {
        auto a = buf.template Get<half>(), b = a[256];
        auto d = buf.template Get<float>()[1024];
        fill(a, 64, [](uint32_t i) { return half(a_of(i)); });
        fill(b, 64, [](uint32_t i) { return half(b_of(i)); });
        fill(d, 64, [](uint32_t i) { return static_cast<float>(i); });
        MulAddDst(d, a, b, 64);
        PipeBarrier<PIPE_V>();
        Axpy(d, a, half(3.0f), 64);
        out = read(d, 64);
    });
    EXPECT_TRUE(r.clean()) << r.text();
    for (uint32_t i = 0; i < 64; ++i)
        EXPECT_EQ(out[i], (static_cast<float>(i) + a_of(i) * b_of(i)) + a_of(i) * 3.0f) << i;
}

TEST(Level0, BadParametersAreReported) {
    evg::hw::Device dev;
    const auto& r = run(dev, [&](auto& buf) {
        auto a = buf.template Get<float>(), d = a[512];
        fill(a, 64, a_of);
        Exp(d, a, 64, 1, UnaryRepeatParams(0, 1, 8, 8));             // dstBlkStride 0
        Exp(d, a, 65, 1, UnaryRepeatParams{});                       // first-k beyond 64 floats
        Exp<float>(d, a, MASK_PLACEHOLDER, 1, UnaryRepeatParams{});  // isSetMask with an empty mask
        BlockReduceSum<float>(d, a, 300, 64, 1, 1, 8);               // repeatTime beyond 255
    });
    EXPECT_EQ(r.count(ViolationKind::bad_param), 4u) << r.text();
}

TEST(Level0, OverlapAcrossRepeatsIsReportedExceptTheDocumentedAccumulation) {
    {
        evg::hw::Device dev;
        const auto& r = run(dev, [&](auto& buf) {
            auto a = buf.template Get<float>();
            fill(a, 192, a_of);
            Adds(a[64], a, 1.0f, 64, 2, UnaryRepeatParams{});  // repeat 1 reads what repeat 0 wrote
        });
        EXPECT_EQ(r.count(ViolationKind::operand_overlap), 1u) << r.text();
        EXPECT_EQ(r.violations.size(), 1u) << r.text();
    }
    {
        evg::hw::Device dev;
        std::vector<float> out;
        const auto& r = run(dev, [&](auto& buf) {
            auto acc = buf.template Get<float>(), src = acc[256];
            fill(acc, 64, [](uint32_t) { return 0.0f; });
            fill(src, 192, a_of);
            Add(acc, src, acc, 64, 3, BinaryRepeatParams(1, 1, 1, 0, 8, 0));  // dst on src1, strides 0
            out = read(acc, 64);
        });
        EXPECT_TRUE(r.clean()) << r.text();
        for (uint32_t k = 0; k < 64; ++k) EXPECT_EQ(out[k], (a_of(k) + a_of(64 + k)) + a_of(128 + k)) << k;
    }
}

// The count forms follow the same rules (docs/hardware-model.md §6.2): the same address, or disjoint bytes,
// or a destination below the source (a later repeat then reads nothing an earlier one wrote) is fine; a
// destination a repeat or more above the source, or less than a repeat away, is reported, for element-wise
// instructions and Casts (a widening Cast in place included). The instruction still runs lane by lane in
// order.
TEST(CountForm, OverlapIsReportedAsTheLevel0FormsAre) {
    const auto overlaps = [](auto body) {
        evg::hw::Device dev;
        const auto& r = run(dev, [&](auto& buf) {
            auto a = buf.template Get<float>();
            fill(a, 1024, a_of);
            body(a);
        });
        EXPECT_EQ(r.violations.size(), r.count(ViolationKind::operand_overlap)) << r.text();
        return r.count(ViolationKind::operand_overlap);
    };
    EXPECT_EQ(overlaps([](auto a) { Adds(a, a, 1.0f, 256); }), 0u);        // in place
    EXPECT_EQ(overlaps([](auto a) { Add(a[512], a, a[256], 256); }), 0u);  // disjoint
    EXPECT_EQ(overlaps([](auto a) { Relu(a, a[64], 256); }), 0u);          // dst a repeat below src
    EXPECT_EQ(overlaps([](auto a) { Relu(a[64], a, 256); }), 1u);          // repeat 1 reads repeat 0's dst
    EXPECT_EQ(overlaps([](auto a) { Add(a[8], a, a[512], 64); }), 1u);     // partly within a repeat
    EXPECT_EQ(overlaps([](auto a) { Add(a[512], a[256], a[320], 128); }), 0u);
    EXPECT_EQ(overlaps([](auto a) { Add(a[320], a[512], a[256], 128); }), 1u);  // src1 below dst
    EXPECT_EQ(overlaps([](auto a) {
                  auto h = a.template ReinterpretCast<half>();
                  Cast(a, h, RoundMode::CAST_NONE, 64);  // widening in place: the lanes grow into the next
              }),
              1u);
    EXPECT_EQ(overlaps([](auto a) {
                  auto h = a.template ReinterpretCast<half>();
                  Cast(h, a, RoundMode::CAST_RINT,
                       256);  // narrowing in place: a repeat's dst is half its src
              }),
              1u);
}

// A strided write reports the bytes it writes, not the span: an unsynchronised MTE3 read of a block between
// them is no race, of a block it wrote is one.
TEST(Level0, StridedAccessesReachTheRaceCheckerExactly) {
    for (bool touch : {false, true}) {
        evg::hw::Device dev;
        void* g = dev.malloc(64);
        const auto& r = run(dev, [&](auto& buf) {
            auto d = buf.template Get<float>();
            fill(d, 128, [](uint32_t) { return 0.0f; });
            PipeBarrier<PIPE_ALL>();
            Duplicate(d, 1.0f, 64, 1, 2, 16);  // writes blocks 0, 2, 4, ..., 14
            GlobalTensor<float> gt;
            gt.SetGlobalBuffer(static_cast<__gm__ float*>(g));
            DataCopy(gt, d[touch ? 16 : 8], 8);  // block 2 (written) or block 1 (not)
            PipeBarrier<PIPE_ALL>();
        });
        EXPECT_EQ(r.count(ViolationKind::race), touch ? 1u : 0u) << r.text();
    }
}

TEST(Level0, IndexOrdersOfWholeReduceAreDeclaredNotModelled) {
    evg::hw::Device dev;
    const auto& r = run(dev, [&](auto& buf) {
        auto a = buf.template Get<float>(), d = a[512];
        fill(a, 64, a_of);
        WholeReduceMax<float>(d, a, 64, 1, 1, 1, 8);
    });
    EXPECT_EQ(r.count(ViolationKind::unmodelled_call), 1u) << r.text();
    EXPECT_NE(r.text().find("WholeReduceMax"), std::string::npos) << r.text();
}

}  // namespace
