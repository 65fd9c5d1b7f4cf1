// The seed examples' epilogues written by hand in AscendC, one body per example, for the tile loop of
// hand_block_epilogue.hpp (conformance/examples/hand_fused/README.md; docs/evg-vs-hand-fused.md compares them
// with the EVG versions on the cycle model).
//
// Each body loads every input of a tile once, computes in place in the C buffer where the types allow, puts a
// PipeBarrier<PIPE_V> only between dependent vector instructions and only on a chip whose vector pipe does
// not keep order (AtlasA2), and stores. The arithmetic is the graph's, operation for operation, in the same
// operand order and rounding, so the outputs are bit-identical to the EVG's; the only freedom taken is the
// order of the additions of a reduction (a fold of rows in halves instead of one row after the other), which
// the examples' integer data make exact.
#pragma once
#include <cstddef>
#include <cstdint>

#include "catlass/catlass.hpp"
#include "hand_block_epilogue.hpp"

namespace evg::hand_fused {

// The host side a kernel asks of its epilogue's parameter bundle: nothing to check, no workspace, Params =
// Arguments.
template <class Args>
struct PlainHostSide {
    using Arguments = Args;
    using Params = Args;
    template <class Shape>
    static bool can_implement(const Shape& /*shape*/, const Args& /*args*/) {
        return true;
    }
    template <class Shape>
    static size_t get_workspace_size(const Shape& /*shape*/, const Args& /*args*/) {
        return 0;
    }
    template <class Shape>
    static Catlass::Status initialize_workspace(const Shape& /*shape*/, const Args& /*args*/, void* /*ws*/) {
        return Catlass::Status::kSuccess;
    }
    template <class Shape>
    static Params to_underlying_arguments(const Shape& /*shape*/, const Args& args, void* /*ws*/) {
        return args;
    }
};

// `elems` elements of T at UB byte `offset`; offset moves past them, rounded to 32 bytes.
template <class ArchTag, class T>
AscendC::LocalTensor<T> take_ub(uint32_t& offset, uint32_t elems) {
    Catlass::Arch::LocalTensorBuffer<ArchTag, AscendC::TPosition::VECCALC, ArchTag::UB_SIZE> ub{};
    AscendC::LocalTensor<T> t = ub.template GetBufferByByte<T>(offset);
    t.SetSize(elems);
    offset += (elems * static_cast<uint32_t>(sizeof(T)) + 31) / 32 * 32;
    return t;
}

// The C tile into the set's C buffer (GM path); on the UB path C is read where the AIC put it.
template <class E>
const AscendC::LocalTensor<E>& load_c(const AscendC::LocalTensor<E>& buf, const CTile<E>& c, const Tile& t) {
    if (c.in_ub) return c.ub;
    load_rows(buf, c.gm, t.rows, t.cols, c.gm_stride, t.pitch);
    return buf;
}

// ---- D = C + X (seed 000 example 32 in half; seed 003 add / add_ub in float, X may be D itself) -----------
template <class E>
struct AddArgs {
    GM_ADDR x = nullptr;
    GM_ADDR d = nullptr;
    int64_t ld = 0;  // row stride of X and D
};

template <class E>
struct AddAux : PlainHostSide<AddArgs<E>> {
    static constexpr uint32_t kPitchElems = kBlockElems<E>;
    AddArgs<E> args;
    AscendC::LocalTensor<E> c[2], x[2];
    explicit AddAux(const AddArgs<E>& a) : args(a) {}

    template <class ArchTag>
    void carve(uint32_t off, uint32_t cl) {
        for (int s = 0; s < 2; ++s) {
            c[s] = take_ub<ArchTag, E>(off, cl);
            x[s] = take_ub<ArchTag, E>(off, cl);
        }
    }
    template <class ArchTag>
    void load(const CTile<E>& ct, const Tile& t) {
        if (!ct.in_ub) load_rows(c[t.set], ct.gm, t.rows, t.cols, ct.gm_stride, t.pitch);
        load_rows(x[t.set], gm_of<E>(args.x)[t.row0 * args.ld + t.col0], t.rows, t.cols, args.ld, t.pitch);
    }
    template <class ArchTag>
    void compute(const CTile<E>& ct, const Tile& t) {
        const AscendC::LocalTensor<E>& cv = ct.in_ub ? ct.ub : c[t.set];
        AscendC::Add(x[t.set], cv, x[t.set], static_cast<int32_t>(t.elems()));
    }
    template <class ArchTag>
    void store(const Tile& t) {
        store_rows(gm_of<E>(args.d)[t.row0 * args.ld + t.col0], x[t.set], t.rows, t.cols, args.ld, t.pitch);
    }
};

// ---- D = half(float(C) + float(X)) (seed 000 example 33) --------------------------------------------------
struct CastAdd : PlainHostSide<AddArgs<half>> {
    static constexpr uint32_t kPitchElems = kBlockElems<half>;  // also a whole number of float blocks
    AddArgs<half> args;
    AscendC::LocalTensor<half> c[2], x[2];
    AscendC::LocalTensor<float> fc[2], fx[2];
    explicit CastAdd(const AddArgs<half>& a) : args(a) {}

    template <class ArchTag>
    void carve(uint32_t off, uint32_t cl) {
        for (int s = 0; s < 2; ++s) {
            c[s] = take_ub<ArchTag, half>(off, cl);
            x[s] = take_ub<ArchTag, half>(off, cl);
            fc[s] = take_ub<ArchTag, float>(off, cl);
            fx[s] = take_ub<ArchTag, float>(off, cl);
        }
    }
    template <class ArchTag>
    void load(const CTile<half>& ct, const Tile& t) {
        load_c(c[t.set], ct, t);
        load_rows(x[t.set], gm_of<half>(args.x)[t.row0 * args.ld + t.col0], t.rows, t.cols, args.ld, t.pitch);
    }
    template <class ArchTag>
    void compute(const CTile<half>& /*ct*/, const Tile& t) {
        const uint32_t n = t.elems();
        const uint32_t s = t.set;
        AscendC::Cast(fc[s], c[s], AscendC::RoundMode::CAST_NONE, n);
        AscendC::Cast(fx[s], x[s], AscendC::RoundMode::CAST_NONE, n);
        vector_barrier<ArchTag>();
        AscendC::Add(fc[s], fc[s], fx[s], static_cast<int32_t>(n));
        vector_barrier<ArchTag>();
        AscendC::Cast(x[s], fc[s], AscendC::RoundMode::CAST_NONE, n);
    }
    template <class ArchTag>
    void store(const Tile& t) {
        store_rows(gm_of<half>(args.d)[t.row0 * args.ld + t.col0], x[t.set], t.rows, t.cols, args.ld,
                   t.pitch);
    }
};

// ---- D = (C + X) + (C + X) (seed 000 example 34) ----------------------------------------------------------
struct TwiceSum : AddAux<half> {
    using AddAux<half>::AddAux;
    template <class ArchTag>
    void compute(const CTile<half>& ct, const Tile& t) {
        const auto n = static_cast<int32_t>(t.elems());
        AscendC::Add(x[t.set], c[t.set], x[t.set], n);
        vector_barrier<ArchTag>();
        AscendC::Add(x[t.set], x[t.set], x[t.set], n);
        (void)ct;
    }
};

// Sums the `rows` rows of f (pitch p) into its first row by folding the upper half onto the lower one:
// ceil(log2(rows)) additions instead of rows - 1.
template <class ArchTag>
void fold_rows(const AscendC::LocalTensor<float>& f, uint32_t rows, uint32_t p) {
    for (uint32_t n = rows; n > 1;) {
        const uint32_t upper = n / 2, keep = n - upper;
        AscendC::Add(f, f, f[keep * p], static_cast<int32_t>(upper * p));
        n = keep;
        if (n > 1) vector_barrier<ArchTag>();
    }
}

// ---- seed 000 example 35: D = C + b (b a row, a column or a scalar, half), stored; then float(D) reduced
// --- over rows (row), over columns (col) or over everything (scalar) and added atomically to a float output.
enum class Broadcast : uint8_t { row, col, scalar };

struct ReduceArgs {
    GM_ADDR b = nullptr;    // the broadcast vector or scalar (half)
    GM_ADDR d = nullptr;    // D (half, m x n)
    GM_ADDR out = nullptr;  // the reduce output (float): 1 x n, m x 1 or 1 x 1, set to 0 by the host
    int64_t ld = 0;         // row stride of D
};

template <Broadcast KIND>
struct BroadcastReduce : PlainHostSide<ReduceArgs> {
    static constexpr uint32_t kPitchElems = kBlockElems<half>;
    static constexpr uint32_t kFloatBlock = kBlockElems<float>;
    ReduceArgs args;
    AscendC::LocalTensor<half> c[2], b[2];
    AscendC::LocalTensor<float> f[2], red[2], work[2];
    half scalar{};
    explicit BroadcastReduce(const ReduceArgs& a) : args(a) {}

    template <class ArchTag>
    void carve(uint32_t off, uint32_t cl) {
        const uint32_t max_rows = cl / kPitchElems;  // one 32-byte slot per row for the per-row sums
        for (int s = 0; s < 2; ++s) {
            c[s] = take_ub<ArchTag, half>(off, cl);
            b[s] = take_ub<ArchTag, half>(off, KIND == Broadcast::scalar ? kPitchElems : cl);
            f[s] = take_ub<ArchTag, float>(off, cl);
            red[s] = take_ub<ArchTag, float>(off, max_rows * kFloatBlock);
            work[s] = take_ub<ArchTag, float>(off, max_rows * kFloatBlock);
        }
        if constexpr (KIND == Broadcast::scalar) {
            // The scalar is the same for every tile: read it once.
            AscendC::DataCopyPad(b[0], gm_of<half>(args.b),
                                 AscendC::DataCopyExtParams{1, sizeof(half), 0, 0, 0},
                                 AscendC::DataCopyPadExtParams<half>{false, 0, 0, half{}});
            AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(2);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(2);
            scalar = b[0].GetValue(0);
        }
    }
    template <class ArchTag>
    void load(const CTile<half>& ct, const Tile& t) {
        load_c(c[t.set], ct, t);
        if constexpr (KIND == Broadcast::row) {
            load_rows(b[t.set], gm_of<half>(args.b)[t.col0], 1, t.cols, t.cols, t.pitch);
        } else if constexpr (KIND == Broadcast::col) {
            load_rows(b[t.set], gm_of<half>(args.b)[t.row0], 1, t.rows, t.rows, round_up_rows(t.rows));
            AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(static_cast<int32_t>(t.set));
        }
    }
    template <class ArchTag>
    void compute(const CTile<half>& /*ct*/, const Tile& t) {
        const uint32_t s = t.set, p = t.pitch;
        const auto cols = static_cast<int32_t>(t.cols);
        if constexpr (KIND == Broadcast::row) {
            for (uint32_t r = 0; r < t.rows; ++r) AscendC::Add(c[s][r * p], c[s][r * p], b[s], cols);
        } else if constexpr (KIND == Broadcast::col) {
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(static_cast<int32_t>(s));
            for (uint32_t r = 0; r < t.rows; ++r) {
                const half v = b[s].GetValue(r);
                AscendC::Adds(c[s][r * p], c[s][r * p], v, cols);
            }
        } else {
            AscendC::Adds(c[s], c[s], scalar, static_cast<int32_t>(t.elems()));
        }
        vector_barrier<ArchTag>();
        AscendC::Cast(f[s], c[s], AscendC::RoundMode::CAST_NONE, t.elems());
        vector_barrier<ArchTag>();
        if constexpr (KIND == Broadcast::col) {
            // One sum per row, each with its own slot and scratch, so they need no barrier between them.
            for (uint32_t r = 0; r < t.rows; ++r)
                AscendC::ReduceSum(red[s][r * kFloatBlock], f[s][r * p], work[s][r * kFloatBlock], cols);
        } else {
            fold_rows<ArchTag>(f[s], t.rows, p);
            if constexpr (KIND == Broadcast::scalar) {
                vector_barrier<ArchTag>();
                AscendC::ReduceSum(red[s], f[s], work[s], cols);
            }
        }
    }
    template <class ArchTag>
    void store(const Tile& t) {
        const uint32_t s = t.set;
        store_rows(gm_of<half>(args.d)[t.row0 * args.ld + t.col0], c[s], t.rows, t.cols, args.ld, t.pitch);
        AscendC::SetAtomicAdd<float>();
        if constexpr (KIND == Broadcast::row) {
            store_rows(gm_of<float>(args.out)[t.col0], f[s], 1, t.cols, t.cols, t.pitch);
        } else if constexpr (KIND == Broadcast::col) {
            // One float per row, from its 32-byte slot (the output is m x 1, row stride 1).
            AscendC::DataCopyPad(
                gm_of<float>(args.out)[t.row0], red[s],
                AscendC::DataCopyExtParams{static_cast<uint16_t>(t.rows), sizeof(float), 0, 0, 0});
        } else {
            AscendC::DataCopyPad(gm_of<float>(args.out), red[s],
                                 AscendC::DataCopyExtParams{1, sizeof(float), 0, 0, 0});
        }
        AscendC::SetAtomicNone();
    }
    static uint32_t round_up_rows(uint32_t rows) { return Catlass::RoundUp(rows, kPitchElems); }
};

// ---- seed 003: D = f(C) for an element-wise f (float)
// ------------------------------------------------------
struct UnaryArgs {
    GM_ADDR d = nullptr;
    int64_t ld = 0;
};

enum class Unary : uint8_t { leaky_relu, sigmoid, silu, tanh };

template <Unary FN>
struct UnaryBody : PlainHostSide<UnaryArgs> {
    static constexpr uint32_t kPitchElems = kBlockElems<float>;
    UnaryArgs args;
    AscendC::LocalTensor<float> c[2], g[2];
    explicit UnaryBody(const UnaryArgs& a) : args(a) {}

    template <class ArchTag>
    void carve(uint32_t off, uint32_t cl) {
        for (int s = 0; s < 2; ++s) {
            c[s] = take_ub<ArchTag, float>(off, cl);
            if constexpr (FN == Unary::tanh) g[s] = take_ub<ArchTag, float>(off, cl);
        }
    }
    template <class ArchTag>
    void load(const CTile<float>& ct, const Tile& t) {
        load_c(c[t.set], ct, t);
    }
    template <class ArchTag>
    void compute(const CTile<float>& /*ct*/, const Tile& t) {
        const AscendC::LocalTensor<float>& x = c[t.set];
        const auto n = static_cast<int32_t>(t.elems());
        if constexpr (FN == Unary::leaky_relu) {
            AscendC::LeakyRelu(x, x, 0.1f, n);
        } else if constexpr (FN == Unary::silu) {
            AscendC::Silu(x, x, n);
        } else if constexpr (FN == Unary::sigmoid) {
            // 1 / (1 + exp(-x)), the instruction sequence of Catlass's Sigmoid.
            AscendC::Muls(x, x, -1.0f, n);
            vector_barrier<ArchTag>();
            AscendC::Exp(x, x, n);
            vector_barrier<ArchTag>();
            AscendC::Adds(x, x, 1.0f, n);
            vector_barrier<ArchTag>();
            AscendC::Divs(x, 1.0f, x, n);
        } else {
            // (e^2x - 1) / (e^2x + 1), x clipped to [-8.8, 8.8].
            const AscendC::LocalTensor<float>& y = g[t.set];
            AscendC::Mins(x, x, 8.8f, n);
            vector_barrier<ArchTag>();
            AscendC::Maxs(x, x, -8.8f, n);
            vector_barrier<ArchTag>();
            AscendC::Muls(x, x, 2.0f, n);
            vector_barrier<ArchTag>();
            AscendC::Exp(x, x, n);
            vector_barrier<ArchTag>();
            AscendC::Adds(y, x, 1.0f, n);
            vector_barrier<ArchTag>();  // y reads x before x is overwritten
            AscendC::Adds(x, x, -1.0f, n);
            vector_barrier<ArchTag>();
            AscendC::Div(x, x, y, n);
        }
    }
    template <class ArchTag>
    void store(const Tile& t) {
        store_rows(gm_of<float>(args.d)[t.row0 * args.ld + t.col0], c[t.set], t.rows, t.cols, args.ld,
                   t.pitch);
    }
};

// ---- seed 003 bias: D = C + bias[j] (float) ---------------------------------------------------------------
struct BiasArgs {
    GM_ADDR bias = nullptr;
    GM_ADDR d = nullptr;
    int64_t ld = 0;
};

struct Bias : PlainHostSide<BiasArgs> {
    static constexpr uint32_t kPitchElems = kBlockElems<float>;
    BiasArgs args;
    AscendC::LocalTensor<float> c[2], b[2];
    explicit Bias(const BiasArgs& a) : args(a) {}

    template <class ArchTag>
    void carve(uint32_t off, uint32_t cl) {
        for (int s = 0; s < 2; ++s) {
            c[s] = take_ub<ArchTag, float>(off, cl);
            b[s] = take_ub<ArchTag, float>(off, cl);
        }
    }
    template <class ArchTag>
    void load(const CTile<float>& ct, const Tile& t) {
        load_c(c[t.set], ct, t);
        load_rows(b[t.set], gm_of<float>(args.bias)[t.col0], 1, t.cols, t.cols, t.pitch);
    }
    template <class ArchTag>
    void compute(const CTile<float>& /*ct*/, const Tile& t) {
        // One addition per row against the one bias row: no copies of the row, no barrier (disjoint rows).
        for (uint32_t r = 0; r < t.rows; ++r)
            AscendC::Add(c[t.set][r * t.pitch], c[t.set][r * t.pitch], b[t.set],
                         static_cast<int32_t>(t.cols));
    }
    template <class ArchTag>
    void store(const Tile& t) {
        store_rows(gm_of<float>(args.d)[t.row0 * args.ld + t.col0], c[t.set], t.rows, t.cols, args.ld,
                   t.pitch);
    }
};

// ---- quantised matmul example 12: D = half((float(C) * float(scale[j])) * float(perTokenScale[i]))
// --------- C is int32 (int8 A and B). Mul3 multiplies left to right, rounding after each product, so the
// hand body does the same: the scale row first, then each row's per-token scale.
struct QuantArgs {
    GM_ADDR scale = nullptr;      // half, 1 x n
    GM_ADDR per_token = nullptr;  // half, m x 1
    GM_ADDR d = nullptr;          // half, m x n
    int64_t ld = 0;               // row stride of D
};

struct QuantScale : PlainHostSide<QuantArgs> {
    // A row pitch of 16 int32 is a whole number of blocks of every UB type here (int32, float, half).
    static constexpr uint32_t kPitchElems = kBlockElems<half>;
    QuantArgs args;
    AscendC::LocalTensor<int32_t> c[2];  // C, converted to float in place and multiplied in place
    AscendC::LocalTensor<half> d[2];     // the half result
    AscendC::LocalTensor<half> sc[2];    // the tile's columns of scale
    AscendC::LocalTensor<float> fsc[2];  // float(scale)
    AscendC::LocalTensor<half> tok[2];   // the tile's rows of perTokenScale, read by the scalar unit
    explicit QuantScale(const QuantArgs& a) : args(a) {}

    template <class ArchTag>
    void carve(uint32_t off, uint32_t cl) {
        const uint32_t max_rows = Catlass::RoundUp(cl / kPitchElems, kPitchElems);
        for (int s = 0; s < 2; ++s) {
            c[s] = take_ub<ArchTag, int32_t>(off, cl);
            d[s] = take_ub<ArchTag, half>(off, cl);
            sc[s] = take_ub<ArchTag, half>(off, cl);
            fsc[s] = take_ub<ArchTag, float>(off, cl);
            tok[s] = take_ub<ArchTag, half>(off, max_rows);
        }
    }
    template <class ArchTag>
    void load(const CTile<int32_t>& ct, const Tile& t) {
        load_c(c[t.set], ct, t);
        load_rows(sc[t.set], gm_of<half>(args.scale)[t.col0], 1, t.cols, t.cols, t.pitch);
        load_rows(tok[t.set], gm_of<half>(args.per_token)[t.row0], 1, t.rows, t.rows,
                  Catlass::RoundUp(t.rows, kBlockElems<half>));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(static_cast<int32_t>(t.set));
    }
    template <class ArchTag>
    void compute(const CTile<int32_t>& /*ct*/, const Tile& t) {
        const uint32_t s = t.set, p = t.pitch, n = t.elems();
        const auto cols = static_cast<int32_t>(t.cols);
        const AscendC::LocalTensor<float> f = c[s].ReinterpretCast<float>();
        // The two conversions are independent: no barrier between them.
        AscendC::Cast(f, c[s], AscendC::RoundMode::CAST_NONE, n);
        AscendC::Cast(fsc[s], sc[s], AscendC::RoundMode::CAST_NONE, t.cols);
        vector_barrier<ArchTag>();
        // Each row times the scale row, then times its own per-token scale (a scalar): the rows are
        // disjoint, so only the dependency of a row's second product on its first needs a barrier.
        for (uint32_t r = 0; r < t.rows; ++r) AscendC::Mul(f[r * p], f[r * p], fsc[s], cols);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(static_cast<int32_t>(s));
        vector_barrier<ArchTag>();
        for (uint32_t r = 0; r < t.rows; ++r)
            AscendC::Muls(f[r * p], f[r * p], static_cast<float>(tok[s].GetValue(r)), cols);
        vector_barrier<ArchTag>();
        AscendC::Cast(d[s], f, AscendC::RoundMode::CAST_NONE, n);
    }
    template <class ArchTag>
    void store(const Tile& t) {
        store_rows(gm_of<half>(args.d)[t.row0 * args.ld + t.col0], d[t.set], t.rows, t.cols, args.ld,
                   t.pitch);
    }
};

}  // namespace evg::hand_fused
