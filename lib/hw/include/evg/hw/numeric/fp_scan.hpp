// Numeric exceptions in one instruction's results, as its element loops find them: the lanes whose result
// is NaN or an infinity (with their operands, and whether the instruction made the value or only passed one
// on), and the count of subnormal results. The loops test each stored result as they store it (vec_compute,
// the casts, the cube's and fixpipe's conversions); the checker "fp" (lib/hw/src/checkers/fp_exceptions.cpp)
// turns what they found into findings. docs/checkers.md, "NaN and infinity: where they are born".
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "evg/hw/numeric/dtype.hpp"

namespace evg::hw {

enum class FpClass : uint8_t { nan, pos_inf, neg_inf };
const char* fp_class_name(FpClass c);  // "NaN", "+inf", "-inf"

inline constexpr uint64_t kNoOperand = ~uint64_t{0};

// A result lane that is not finite.
struct FpLane {
    uint64_t dst = 0;                            // the result's byte offset (element loops: its lane index)
    uint64_t src[2] = {kNoOperand, kNoOperand};  // the byte offsets of the operand lanes it read
    float in[2] = {0.0f, 0.0f};                  // their values, widened to float
    float wide = 0.0f;                           // the result before it was narrowed to its type
    FpClass cls = FpClass::nan;
    bool born = false;       // no operand it read from memory was NaN or infinite: this instruction made it
    bool by_zero = false;    // a division (or reciprocal) by zero
    bool unwritten = false;  // an operand lane was never written (a tile's padding; set by the issuing layer)
};

struct FpScan {
    std::vector<FpLane> lanes;  // the non-finite results, in lane order
    uint64_t subnormal = 0;     // results that are subnormal (not zero)
    void clear() {
        lanes.clear();
        subnormal = 0;
    }
};

// Bit tests of one stored element of a float type (f32, f16, bf16); any other type is always finite.
struct FpBits {
    uint32_t exp_mask = 0, mant_mask = 0, sign_mask = 0;
    uint32_t size = 0;
    static FpBits of(DType t) {
        switch (t) {
            case DType::f32:
                return {0x7F800000u, 0x007FFFFFu, 0x80000000u, 4};
            case DType::f16:
                return {0x7C00u, 0x03FFu, 0x8000u, 2};
            case DType::bf16:
                return {0x7F80u, 0x007Fu, 0x8000u, 2};
            default:
                return {};
        }
    }
    bool is_float() const { return size != 0; }
    uint32_t load(const uint8_t* p) const {
        if (size == 4) {
            uint32_t v;
            std::memcpy(&v, p, 4);
            return v;
        }
        uint16_t v;
        std::memcpy(&v, p, 2);
        return v;
    }
    bool finite(uint32_t b) const { return (b & exp_mask) != exp_mask; }
    bool subnormal(uint32_t b) const { return (b & exp_mask) == 0 && (b & mant_mask) != 0; }
    FpClass cls(uint32_t b) const {
        if ((b & mant_mask) != 0) return FpClass::nan;
        return (b & sign_mask) != 0 ? FpClass::neg_inf : FpClass::pos_inf;
    }
};

// The largest finite value of a float type (65504 for half); 0 for other types.
double fp_max_finite(DType t);

}  // namespace evg::hw
