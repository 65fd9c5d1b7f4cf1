// Which element types each vector instruction accepts on each chip (docs/hardware-model.md §6.3). This is the
// one table of the rule: lib/ascendc asks it when an instruction is issued, graph validation asks it for the
// instructions a functor or a node issues.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "evg/hw/arch.hpp"
#include "evg/hw/numeric/dtype.hpp"

namespace evg::hw {

// The vector instructions whose element types the table rules, by their AscendC names. Divs is both forms
// (tensor / scalar and scalar / tensor).
enum class VectorOp : uint8_t {
    Add,
    Sub,
    Mul,
    Div,
    Max,
    Min,
    Prelu,  // binary
    Adds,
    Muls,
    Maxs,
    Mins,
    Divs,
    LeakyRelu,  // with a scalar
    Exp,
    Ln,
    Abs,
    Relu,
    Sqrt,
    Rsqrt,
    Reciprocal,
    Silu,  // unary
    Duplicate,
    ReduceSum,
    ReduceMax,
    ReduceMin,
    // Level-0 only (mask and repeat form): bitwise, fused, data movement, per-block and per-repeat
    // reductions, compare and select. uint16 and uint32 operands are ruled as int16 and int32 (same lanes,
    // same bits).
    And,
    Or,
    ShiftLeft,
    Axpy,
    MulAddDst,
    Copy,
    Brcb,
    BlockReduceSum,
    BlockReduceMax,
    BlockReduceMin,
    WholeReduceSum,
    WholeReduceMax,
    WholeReduceMin,
    RepeatReduceSum,
    CompareScalar,
    Select,
};
std::span<const VectorOp> all_vector_ops();
std::string_view vector_op_name(VectorOp op);  // "Add", "Divs", "ReduceSum", ...

// A set of element types (bit i: the DType with value i).
struct DTypeSet {
    uint16_t bits = 0;

    constexpr DTypeSet() = default;
    constexpr DTypeSet(std::initializer_list<DType> types) {
        for (DType t : types) bits = static_cast<uint16_t>(bits | bit(t));
    }
    constexpr bool contains(DType t) const { return (bits & bit(t)) != 0; }
    constexpr bool empty() const { return bits == 0; }
    constexpr DTypeSet operator&(DTypeSet o) const { return from_bits(static_cast<uint16_t>(bits & o.bits)); }
    constexpr DTypeSet operator|(DTypeSet o) const { return from_bits(static_cast<uint16_t>(bits | o.bits)); }
    friend constexpr bool operator==(DTypeSet a, DTypeSet b) { return a.bits == b.bits; }

  private:
    static constexpr uint16_t bit(DType t) { return static_cast<uint16_t>(1u << static_cast<unsigned>(t)); }
    static constexpr DTypeSet from_bits(uint16_t b) {
        DTypeSet s;
        s.bits = b;
        return s;
    }
};

// The element types `op` accepts on `arch`.
DTypeSet vector_dtypes(ArchId arch, VectorOp op);
inline bool vector_dtype_legal(ArchId arch, VectorOp op, DType t) {
    return vector_dtypes(arch, op).contains(t);
}

// Whether vector arithmetic accepts `t` on `arch`: the types of Add (no bfloat16 arithmetic on AtlasA2).
inline bool arithmetic_dtype_legal(ArchId arch, DType t) {
    return vector_dtype_legal(arch, VectorOp::Add, t);
}

// The names of the set's types in kAllDTypes order, comma separated: "float, half, int16, int32".
std::string dtype_list(DTypeSet s);

}  // namespace evg::hw
