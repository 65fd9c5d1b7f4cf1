// evaluate() against tiny problems whose results are worked out by hand in the comments, one or more per
// node kind, plus the GEMM's accumulation order, strided tensors, NaN/Inf and the error paths.
#include <gtest/gtest.h>

#include "evg/hw/error.hpp"
#include "evg/oracle/evaluate.hpp"
#include "oracle_test_util.hpp"

namespace evg::oracle {
namespace {

using graph::Functor;
using namespace evg::oracle::test;
using Vec = std::vector<Real>;

// A (2x1) = [1; 2], B (1x3) = [1 2 3]  =>  C = [1 2 3; 2 4 6]
Inputs small_gemm(DType t = F16) {
    return {{"A", HostTensor::of(t, {1, 2})}, {"B", HostTensor::of(t, {1, 2, 3})}};
}

TEST(Oracle_AccLoad, GemmByHand_half) {
    // A = [1 2; 3 4], B = [1 0 -1; 2 0.5 3]  =>  C = [1+4, 0+1, -1+6; 3+8, 0+2, -3+12] = [5 1 5; 11 2 9]
    ProblemBuilder b(2, 3, 2, F16, F16, F32);
    b.output("D", F32, 2, 3);
    b.store(F32, "D", b.acc());
    const Inputs in{{"A", HostTensor::of(F16, {1, 2, 3, 4})},
                    {"B", HostTensor::of(F16, {1, 0, -1, 2, 0.5, 3})}};
    const OracleResult r = evaluate(b.p, in);
    EXPECT_EQ(values_of(r.output("D")), (Vec{5, 1, 5, 11, 2, 9}));
    EXPECT_TRUE(r.nodes[0].evaluated);
    EXPECT_EQ(r.nodes[0].values(1, 2), 9);
    EXPECT_EQ(r.c.values(0, 1), 1);
}

TEST(Oracle_AccLoad, FloatAccumulationInKOrder) {
    // A = [2^24 1 1], B = [1; 1; 1]: (2^24 + 1) is a tie -> 2^24, + 1 -> 2^24 again; the exact sum 2^24 + 2
    // is a float, so any other order or a wider accumulator would give 2^24 + 2
    ProblemBuilder b(1, 1, 3, F32, F32, F32);
    b.output("D", F32, 1, 1);
    b.store(F32, "D", b.acc());
    const Inputs in{{"A", HostTensor::of(F32, {p2(24), 1, 1})}, {"B", HostTensor::of(F32, {1, 1, 1})}};
    EXPECT_EQ(evaluate(b.p, in).output("D").value(0), p2(24));
}

TEST(Oracle_AccLoad, FloatProductsRounded) {
    // A = [1+2^-23, -1], B = [1+2^-23; 1]: (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 rounds to 1 + 2^-22 before the
    // sum, so the result is 2^-22; a fused multiply-add or a wider accumulator would keep the 2^-46
    ProblemBuilder b(1, 1, 2, F32, F32, F32);
    b.output("D", F32, 1, 1);
    b.store(F32, "D", b.acc());
    const Inputs in{{"A", HostTensor::of(F32, {1 + p2(-23), -1})},
                    {"B", HostTensor::of(F32, {1 + p2(-23), 1})}};
    EXPECT_EQ(evaluate(b.p, in).output("D").value(0), p2(-22));  // (1 + 2^-22) - 1
}

TEST(Oracle_AccLoad, RoundedToElementC_half) {
    // 2049 (exact in float) stored as half: halfway between 2048 and 2050 -> 2048
    ProblemBuilder b(1, 1, 1, F32, F32, F16);
    b.output("D", F16, 1, 1);
    b.store(F16, "D", b.acc());
    const Inputs in{{"A", HostTensor::of(F32, {2049})}, {"B", HostTensor::of(F32, {1})}};
    EXPECT_EQ(evaluate(b.p, in).output("D").value(0), 2048);
}

TEST(Oracle_AccLoad, Int8GemmInt32) {
    // 127*127 + (-128)*127 = -127
    ProblemBuilder b(1, 1, 2, DType::i8, DType::i8, DType::i32);
    b.output("D", DType::i32, 1, 1);
    b.store(DType::i32, "D", b.acc());
    const Inputs in{{"A", HostTensor::of(DType::i8, {127, -128})},
                    {"B", HostTensor::of(DType::i8, {127, 127})}};
    EXPECT_EQ(evaluate(b.p, in).output("D").bits(0), 0xffffff81u);
}

TEST(Oracle_AuxLoad, StridedInputAndStridedOutputKeepsPadding) {
    // X is 2x3 with row stride 4 (column 3 is padding, 99); D is 2x3 with row stride 5, pre-filled with 7
    ProblemBuilder b(2, 3, 1, F16, F16, F32);
    b.input("X", F16, 2, 3, 4);
    b.output("D", F16, 2, 3, 5);
    b.store(F16, "D", b.aux(F16, "X"));
    Inputs in = small_gemm();
    in["X"] = HostTensor::of(F16, {1, 2, 3, 99, 4, 5, 6, 99});
    in["D"] = HostTensor::of(F16, {7, 7, 7, 7, 7, 7, 7, 7, 7, 7});
    const OracleResult r = evaluate(b.p, in);
    EXPECT_EQ(values_of(r.output("D")), (Vec{1, 2, 3, 7, 7, 4, 5, 6, 7, 7}));
}

TEST(Oracle_AuxStore, PassesInputOnAndWritesOnlyWhenReached) {
    // %1 stores D and feeds %2; %3 stores E but nothing reaches it from the root %2... so E stays zero
    ProblemBuilder b(2, 3, 1, F16, F16, F16);
    b.output("D", F16, 2, 3);
    b.output("E", F16, 2, 3);
    const int acc = b.acc();
    b.store(F16, "E", acc);  // %1: unreachable from the root
    const int d = b.store(F16, "D", acc);
    b.compute(Functor::Muls, F16, {d}, {2});  // root: 2C
    const OracleResult r = evaluate(b.p, small_gemm());
    EXPECT_EQ(values_of(r.output("D")), (Vec{1, 2, 3, 2, 4, 6}));
    EXPECT_EQ(values_of(r.output("E")), (Vec{0, 0, 0, 0, 0, 0}));
    EXPECT_FALSE(r.nodes[1].evaluated);
    EXPECT_EQ(r.nodes[3].values(1, 2), 12);
}

TEST(Oracle_AuxLoad, LoadOfAnOutputSeesItsInitialContents) {
    // %1 stores C into D, %2 loads D: per tile the load runs before the store, so %2 sees D's initial zeros
    // and E = C + 0 = C; a load that saw the store would give E = 2C
    ProblemBuilder b(2, 3, 1, F16, F16, F16);
    b.output("D", F16, 2, 3);
    b.output("E", F16, 2, 3);
    const int d = b.store(F16, "D", b.acc());
    b.store(F16, "E", b.compute(Functor::Add, F16, {d, b.aux(F16, "D")}));
    const OracleResult r = evaluate(b.p, small_gemm());
    EXPECT_EQ(values_of(r.output("D")), (Vec{1, 2, 3, 2, 4, 6}));
    EXPECT_EQ(values_of(r.output("E")), (Vec{1, 2, 3, 2, 4, 6}));
}

TEST(Oracle_Cast, FloatToHalfEveryMode) {
    // X = [1+2^-11, 1+3*2^-11, -(1+2^-11); 65520, 2^-25, -1e6] (see numeric_test for the per-mode patterns)
    const HostTensor x =
        HostTensor::of(F32, {1 + p2(-11), 1 + 3 * p2(-11), -(1 + p2(-11)), 65520, p2(-25), -1e6});
    struct Expect {
        RoundMode m;
        std::initializer_list<std::uint64_t> bits;
    };
    const Expect expects[] = {
        {RoundMode::CAST_NONE, {0x3c00, 0x3c02, 0xbc00, 0x7c00, 0x0000, 0xfc00}},
        {RoundMode::CAST_RINT, {0x3c00, 0x3c02, 0xbc00, 0x7c00, 0x0000, 0xfc00}},
        {RoundMode::CAST_FLOOR, {0x3c00, 0x3c01, 0xbc01, 0x7bff, 0x0000, 0xfc00}},
        {RoundMode::CAST_CEIL, {0x3c01, 0x3c02, 0xbc00, 0x7c00, 0x0001, 0xfbff}},
        {RoundMode::CAST_ROUND, {0x3c01, 0x3c02, 0xbc01, 0x7c00, 0x0001, 0xfc00}},
        {RoundMode::CAST_TRUNC, {0x3c00, 0x3c01, 0xbc00, 0x7bff, 0x0000, 0xfbff}},
        {RoundMode::CAST_ODD, {0x3c01, 0x3c01, 0xbc01, 0x7bff, 0x0001, 0xfbff}},
    };
    for (const Expect& e : expects) {
        ProblemBuilder b(2, 3, 1, F16, F16, F32);
        b.input("X", F32, 2, 3);
        b.output("D", F16, 2, 3);
        b.store(F16, "D", b.cast(F16, F32, e.m, b.aux(F32, "X")));
        Inputs in = small_gemm();
        in["X"] = x;
        const OracleResult r = evaluate(b.p, in);
        expect_bits(r.nodes[1].values, F16, e.bits, std::string("mode ") + std::to_string(int(e.m)));
        std::vector<std::uint64_t> stored;
        for (std::size_t i = 0; i < 6; ++i) stored.push_back(r.output("D").bits(i));
        EXPECT_EQ(stored, std::vector<std::uint64_t>(e.bits)) << int(e.m);
    }
}

TEST(Oracle_Cast, FloatToInt32FloorSaturatesAndNaNIsZero) {
    ProblemBuilder b(2, 3, 1, F16, F16, F32);
    b.input("X", F32, 2, 3);
    b.output("D", DType::i32, 2, 3);
    b.store(DType::i32, "D", b.cast(DType::i32, F32, RoundMode::CAST_FLOOR, b.aux(F32, "X")));
    Inputs in = small_gemm();
    in["X"] = HostTensor::of(F32, {2.5, -2.5, test::kNaN, 3e9, -0.5, 1.5});
    EXPECT_EQ(values_of(evaluate(b.p, in).output("D")), (Vec{2, -3, 0, 2147483647, -1, 1}));
}

TEST(Oracle_Cast, HalfToFloatExact) {
    ProblemBuilder b(2, 3, 1, F16, F16, F16);
    b.output("D", F32, 2, 3);
    b.store(F32, "D", b.cast(F32, F16, RoundMode::CAST_NONE, b.acc()));
    EXPECT_EQ(values_of(evaluate(b.p, small_gemm()).output("D")), (Vec{1, 2, 3, 2, 4, 6}));
}

TEST(Oracle_Compute, MatmulAddLikeExample32) {
    // D = C + X, half: C = [1 2 3; 2 4 6], X = [0.5 -2 2045; 1 1 1] -> [1.5 0 2048; 3 5 7]
    ProblemBuilder b(2, 3, 1, F16, F16, F16);
    b.input("X", F16, 2, 3);
    b.output("D", F16, 2, 3);
    b.store(F16, "D", b.compute(Functor::Add, F16, {b.acc(), b.aux(F16, "X")}));
    Inputs in = small_gemm();
    in["X"] = HostTensor::of(F16, {0.5, -2, 2045, 1, 1, 1});
    EXPECT_EQ(values_of(evaluate(b.p, in).output("D")), (Vec{1.5, 0, 2048, 3, 5, 7}));
}

TEST(Oracle_Compute, SharedInputLikeExample34) {
    // Topological: 0 AccLoad, 1 AuxLoad X, 2 Add(0,1), 3 Add(2,2), 4 Store  =>  D = 2 (C + X)
    ProblemBuilder b(2, 3, 1, F16, F16, F16);
    b.input("X", F16, 2, 3);
    b.output("D", F16, 2, 3);
    const int add = b.compute(Functor::Add, F16, {b.acc(), b.aux(F16, "X")});
    b.store(F16, "D", b.compute(Functor::Add, F16, {add, add}));
    Inputs in = small_gemm();
    in["X"] = HostTensor::of(F16, {-1, 0, 1, -2, -4, -6});
    EXPECT_EQ(values_of(evaluate(b.p, in).output("D")), (Vec{0, 4, 8, 0, 0, 0}));
}

TEST(Oracle_Compute, NaNAndInfPropagate) {
    // C + X with X = [NaN inf -inf; 65504 -inf 0]: 2 + 65504 = 65506 is below the overflow tie 65520 and
    // rounds back to 65504; 4 + -inf = -inf
    ProblemBuilder b(2, 3, 1, F16, F16, F16);
    b.input("X", F16, 2, 3);
    b.output("D", F16, 2, 3);
    b.store(F16, "D", b.compute(Functor::Add, F16, {b.acc(), b.aux(F16, "X")}));
    Inputs in = small_gemm();
    in["X"] = HostTensor::of(F16, {test::kNaN, test::kInf, -test::kInf, 65504, -test::kInf, 0});
    const HostTensor& d = evaluate(b.p, in).output("D");
    EXPECT_TRUE(std::isnan(d.value(0)));
    EXPECT_EQ(d.bits(1), 0x7c00u);
    EXPECT_EQ(d.bits(2), 0xfc00u);
    EXPECT_EQ(d.bits(3), 0x7bffu);
    EXPECT_EQ(d.bits(4), 0xfc00u);
    EXPECT_EQ(d.bits(5), 0x4600u);  // 6
}

TEST(Oracle_RowBroadcast, AddsBiasPerColumn) {
    // D = C + bias[j], bias (1x3) = [10 20 30]  =>  [11 22 33; 12 24 36]
    ProblemBuilder b(2, 3, 1, F16, F16, F16);
    b.input("bias", F16, 1, 3);
    b.output("D", F16, 2, 3);
    b.store(F16, "D", b.compute(Functor::Add, F16, {b.acc(), b.row_bcast(F16, "bias")}));
    Inputs in = small_gemm();
    in["bias"] = HostTensor::of(F16, {10, 20, 30});
    const OracleResult r = evaluate(b.p, in);
    EXPECT_EQ(values_of(r.output("D")), (Vec{11, 22, 33, 12, 24, 36}));
    EXPECT_EQ(r.nodes[1].values(1, 2), 30);  // the broadcast itself: row j repeated down the rows
}

TEST(Oracle_ColBroadcast, AddsPerRowFromStridedVector) {
    // col (2x1, row stride 2: every other element is padding) = [100; 200]  =>  [101 102 103; 202 204 206]
    ProblemBuilder b(2, 3, 1, F16, F16, F16);
    b.input("col", F16, 2, 1, 2);
    b.output("D", F16, 2, 3);
    b.store(F16, "D", b.compute(Functor::Add, F16, {b.acc(), b.col_bcast(F16, "col")}));
    Inputs in = small_gemm();
    in["col"] = HostTensor::of(F16, {100, -1, 200, -1});
    EXPECT_EQ(values_of(evaluate(b.p, in).output("D")), (Vec{101, 102, 103, 202, 204, 206}));
}

TEST(Oracle_ScalarBroadcast, ScalesEverything) {
    ProblemBuilder b(2, 3, 1, F16, F16, F16);
    b.input("s", F16, 1, 1);
    b.output("D", F16, 2, 3);
    b.store(F16, "D", b.compute(Functor::Mul, F16, {b.acc(), b.scalar_bcast(F16, "s")}));
    Inputs in = small_gemm();
    in["s"] = HostTensor::of(F16, {0.5});
    EXPECT_EQ(values_of(evaluate(b.p, in).output("D")), (Vec{0.5, 1, 1.5, 1, 2, 3}));
}

TEST(Oracle_RowReduce, AddAccumulatesIntoInitialisedOutput) {
    // column sums of C = [3 6 9]; out = init [1000 0 -1] + sums = [1003 6 8]; the node passes C on
    ProblemBuilder b(2, 3, 1, F32, F32, F32);
    b.output("rowOut", F32, 1, 3);
    b.row_reduce(Functor::Add, F32, "rowOut", b.acc());
    Inputs in = small_gemm(F32);
    in["rowOut"] = HostTensor::of(F32, {1000, 0, -1});
    const OracleResult r = evaluate(b.p, in);
    EXPECT_EQ(values_of(r.output("rowOut")), (Vec{1003, 6, 8}));
    EXPECT_EQ(r.nodes[1].values(1, 2), 6);
}

// keep_values: a chain's inner values are let go once read, a kept node (and one read twice, until its
// second reader) keeps them, and the outputs are those of the evaluation that keeps everything.
TEST(Oracle_Evaluate, KeepValuesReleasesWhatNobodyReadsAnyMore) {
    ProblemBuilder b(2, 3, 1, F32, F32, F32);
    b.output("D", F32, 2, 3);
    const int acc = b.acc();
    const int x1 = b.compute(Functor::Adds, F32, {acc}, {1});
    const int x2 = b.compute(Functor::Muls, F32, {x1}, {2});
    const int x3 = b.compute(Functor::Add, F32, {x2, x1});  // x1 read a second time, after x2
    const int x4 = b.compute(Functor::Adds, F32, {x3}, {-1});
    b.store(F32, "D", x4);
    std::vector<bool> keep(b.p.graph.nodes.size(), false);
    keep[static_cast<std::size_t>(x2)] = true;
    const OracleResult all = evaluate(b.p, small_gemm(F32));
    const OracleResult some = evaluate(b.p, small_gemm(F32), keep);
    EXPECT_EQ(values_of(some.output("D")), values_of(all.output("D")));
    // C = [1 2 3; 2 4 6], x1 = C + 1, x2 = 2 x1, x3 = x2 + x1 = 3 x1, x4 = 3 x1 - 1: D(1, 2) = 20
    EXPECT_EQ(values_of(some.output("D"))[5], 20);
    for (std::size_t i = 0; i < some.nodes.size(); ++i) EXPECT_TRUE(some.nodes[i].evaluated) << i;
    for (int released : {acc, x1, x3, x4}) {
        EXPECT_TRUE(some.nodes[static_cast<std::size_t>(released)].released) << released;
        EXPECT_EQ(some.nodes[static_cast<std::size_t>(released)].values.size(), 0) << released;
    }
    EXPECT_FALSE(some.nodes[static_cast<std::size_t>(x2)].released);
    EXPECT_TRUE(
        (some.nodes[static_cast<std::size_t>(x2)].values == all.nodes[static_cast<std::size_t>(x2)].values)
            .all());
    EXPECT_FALSE(all.nodes[static_cast<std::size_t>(x1)].released);  // no keep_values: everything stays
    // The replay without values gives the evaluator's own count: acc and x1 live, then x2 (kept), x3, ...
    EXPECT_EQ(some.live_values_peak, peak_live_values(b.p, keep));
    EXPECT_EQ(some.live_values_peak, 3u);  // x1 (read again by x3), x2 (kept) and x3, once x3 is computed
    EXPECT_EQ(all.live_values_peak, peak_live_values(b.p, {}));
    EXPECT_EQ(all.live_values_peak, 6u);  // every node
}

// A store and a reduction pass their input's values on: taken over when they are its last reader (keep_values
// releases it right after), copied when another node reads it later, with the same outputs either way.
TEST(Oracle_Evaluate, AStoreOrAReductionTakesOverItsInputOnlyFromItsLastReader) {
    ProblemBuilder b(2, 3, 1, F32, F32, F32);
    b.output("S", F32, 2, 3);
    b.output("rowOut", F32, 1, 3);
    b.output("D", F32, 2, 3);
    const int x1 = b.compute(Functor::Adds, F32, {b.acc()}, {1});
    const int s = b.store(F32, "S", x1);                          // x1 is read again below: copied
    const int x2 = b.compute(Functor::Add, F32, {s, x1});         // 2 x1
    const int r = b.row_reduce(Functor::Add, F32, "rowOut", x2);  // its last reader: taken over
    b.store(F32, "D", r);
    std::vector<bool> keep(b.p.graph.nodes.size(), false);
    const OracleResult all = evaluate(b.p, small_gemm(F32));
    const OracleResult some = evaluate(b.p, small_gemm(F32), keep);
    // C = [1 2 3; 2 4 6], x1 = C + 1 = [2 3 4; 3 5 7], x2 = D = 2 x1, rowOut = column sums of x2
    EXPECT_EQ(values_of(some.output("S")), (Vec{2, 3, 4, 3, 5, 7}));
    EXPECT_EQ(values_of(some.output("D")), (Vec{4, 6, 8, 6, 10, 14}));
    EXPECT_EQ(values_of(some.output("rowOut")), (Vec{10, 16, 22}));
    for (const char* out : {"S", "D", "rowOut"})
        EXPECT_EQ(values_of(some.output(out)), values_of(all.output(out))) << out;
    EXPECT_TRUE(some.nodes[static_cast<std::size_t>(x2)].released);
    EXPECT_TRUE(
        (all.nodes[static_cast<std::size_t>(r)].values == all.nodes[static_cast<std::size_t>(x2)].values)
            .all());
}

TEST(Oracle_RowReduce, MaxWithInitAndZeroDefault) {
    // column maxima of -C = [-1 -2 -3]; without an initial buffer the output starts at +0 (a memset-0
    // buffer) -> [0 0 0]; with init [-5 -inf 7] -> [-1 -2 7]
    ProblemBuilder b(2, 3, 1, F32, F32, F32);
    b.output("rowOut", F32, 1, 3);
    b.row_reduce(Functor::Max, F32, "rowOut", b.compute(Functor::Muls, F32, {b.acc()}, {-1}));
    Inputs in = small_gemm(F32);
    EXPECT_EQ(values_of(evaluate(b.p, in).output("rowOut")), (Vec{0, 0, 0}));  // max(0, -1..-6) = 0
    in["rowOut"] = HostTensor::of(F32, {-5, -test::kInf, 7});
    EXPECT_EQ(values_of(evaluate(b.p, in).output("rowOut")), (Vec{-1, -2, 7}));
}

TEST(Oracle_RowReduce, HalfRoundsAfterEveryRow) {
    // rows of a 3x1 half column [2048; 1; 1]: 2048 + 1 -> 2048, + 1 -> 2048 (exact sum 2050 is a half)
    ProblemBuilder b(3, 1, 1, F16, F16, F16);
    b.input("X", F16, 3, 1);
    b.output("rowOut", F16, 1, 1);
    b.row_reduce(Functor::Add, F16, "rowOut", b.aux(F16, "X"));
    Inputs in{{"A", HostTensor::of(F16, {0, 0, 0})}, {"B", HostTensor::of(F16, {0})}};
    in["X"] = HostTensor::of(F16, {2048, 1, 1});
    EXPECT_EQ(evaluate(b.p, in).output("rowOut").value(0), 2048);
}

TEST(Oracle_RowReduce, StoreCastReduceLikeExample35) {
    // D = C + row (half), rowOut = sum over rows of float(D): D = [11 22 33; 12 24 36] -> [23 46 69]
    ProblemBuilder b(2, 3, 1, F16, F16, F16);
    b.input("row", F16, 1, 3);
    b.output("D", F16, 2, 3);
    b.output("rowOut", F32, 1, 3);
    const int d = b.store(F16, "D", b.compute(Functor::Add, F16, {b.acc(), b.row_bcast(F16, "row")}));
    b.row_reduce(Functor::Add, F32, "rowOut", b.cast(F32, F16, RoundMode::CAST_NONE, d));
    Inputs in = small_gemm();
    in["row"] = HostTensor::of(F16, {10, 20, 30});
    const OracleResult r = evaluate(b.p, in);
    EXPECT_EQ(values_of(r.output("D")), (Vec{11, 22, 33, 12, 24, 36}));
    EXPECT_EQ(values_of(r.output("rowOut")), (Vec{23, 46, 69}));
}

TEST(Oracle_ColReduce, AddAndMinPerRow) {
    // row sums of C = [6; 12]; init [0.5; -12] -> [6.5; 0]. row minima = [1; 2]
    ProblemBuilder b(2, 3, 1, F32, F32, F32);
    b.output("sum", F32, 2, 1);
    b.output("min", F32, 2, 1, 3);  // strided (M,1) output: elements 0 and 3
    const int acc = b.acc();
    const int s = b.col_reduce(Functor::Add, F32, "sum", acc);
    b.col_reduce(Functor::Min, F32, "min", s);
    Inputs in = small_gemm(F32);
    in["sum"] = HostTensor::of(F32, {0.5, -12});
    in["min"] = HostTensor::of(F32, {9, 9, 9, 9});
    const OracleResult r = evaluate(b.p, in);
    EXPECT_EQ(values_of(r.output("sum")), (Vec{6.5, 0}));
    EXPECT_EQ(values_of(r.output("min")), (Vec{1, 9, 9, 2}));
}

TEST(Oracle_ScalarReduce, AddMaxAndNaN) {
    // sum of C = 18, init 2 -> 20; max of C = 6 but init 10 wins; an Inf and a -Inf sum to NaN
    ProblemBuilder b(2, 3, 1, F32, F32, F32);
    b.output("sum", F32, 1, 1);
    b.output("max", F32, 1, 1);
    b.scalar_reduce(Functor::Max, F32, "max", b.scalar_reduce(Functor::Add, F32, "sum", b.acc()));
    Inputs in = small_gemm(F32);
    in["sum"] = HostTensor::of(F32, {2});
    in["max"] = HostTensor::of(F32, {10});
    OracleResult r = evaluate(b.p, in);
    EXPECT_EQ(r.output("sum").value(0), 20);
    EXPECT_EQ(r.output("max").value(0), 10);

    in["A"] = HostTensor::of(F32, {test::kInf, -test::kInf});  // C rows: [inf 2inf 3inf; -inf ...]
    r = evaluate(b.p, in);
    EXPECT_TRUE(std::isnan(r.output("sum").value(0)));
    EXPECT_EQ(r.output("max").value(0), test::kInf);
}

TEST(Oracle_ScalarReduce, RowMajorOrderInHalf) {
    // x = [2048 1; 1 2]: ((2048 + 1) -> 2048, + 1 -> 2048, + 2 -> 2050); init 0 -> 2050
    ProblemBuilder b(2, 2, 1, F16, F16, F16);
    b.input("X", F16, 2, 2);
    b.output("s", F16, 1, 1);
    b.scalar_reduce(Functor::Add, F16, "s", b.aux(F16, "X"));
    Inputs in{{"A", HostTensor::of(F16, {0, 0})}, {"B", HostTensor::of(F16, {0, 0})}};
    in["X"] = HostTensor::of(F16, {2048, 1, 1, 2});
    EXPECT_EQ(evaluate(b.p, in).output("s").value(0), 2050);
}

TEST(Oracle_Evaluate, ErrorsNameTheProblem) {
    ProblemBuilder b(2, 3, 1, F16, F16, F16);
    b.input("X", F16, 2, 3);
    b.output("D", F16, 2, 3);
    b.store(F16, "D", b.compute(Functor::Add, F16, {b.acc(), b.aux(F16, "X")}));
    // no X buffer
    EXPECT_THROW(evaluate(b.p, small_gemm()), evg::Error);
    // X too small
    Inputs in = small_gemm();
    in["X"] = HostTensor::of(F16, {1, 2});
    EXPECT_THROW(evaluate(b.p, in), evg::Error);
    // no A
    in = Inputs{{"B", HostTensor::of(F16, {1, 2, 3})}, {"X", HostTensor(F16, 6)}};
    EXPECT_THROW(evaluate(b.p, in), evg::Error);
    // AccLoad element != ElementC
    in = small_gemm();
    in["X"] = HostTensor(F16, 6);
    b.p.c = F32;
    try {
        evaluate(b.p, in);
        FAIL() << "expected an error";
    } catch (const evg::Error& e) {
        EXPECT_NE(std::string(e.what()).find("%0 AccLoad"), std::string::npos) << e.what();
    }
    b.p.c = F16;
    // a cycle: the Add reads the store
    b.p.graph.nodes[2].inputs[1] = 3;
    EXPECT_THROW(evaluate(b.p, in), evg::Error);
    // output() with an unknown name
    b.p.graph.nodes[2].inputs[1] = 1;
    EXPECT_THROW(evaluate(b.p, in).output("E"), evg::Error);
}

TEST(Oracle_Evaluate, InputTypeMismatchThrows) {
    // a half Compute fed a float value
    ProblemBuilder b(2, 3, 1, F16, F16, F32);
    b.output("D", F16, 2, 3);
    b.store(F16, "D", b.compute(Functor::Exp, F16, {b.acc()}));
    EXPECT_THROW(evaluate(b.p, small_gemm()), evg::Error);
}

}  // namespace
}  // namespace evg::oracle
