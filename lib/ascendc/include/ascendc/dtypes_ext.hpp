// Element types that upstream Catlass names but the model does not compute with: the 8-bit and 4-bit floats
// of Ascend950, the MX scale types, int4b_t; and the DataType enum (DT_FLOAT, ...). Each type has the storage
// size of its device counterpart (Catlass's numeric_size.hpp counts bits as sizeof(T) * 8 when bisheng does
// not compile it, and takes the two x2-packed 4-bit types as 4 bits), is trivially copyable and compares
// bytewise. No arithmetic and no conversion: an instruction that would compute on one of them is rejected by
// the machine's dtype table (docs/ascendc-api.md, "Element types").
#pragma once
#include <cstdint>

namespace AscendC::detail {
// One byte of an element type the model stores but does not compute with. `Tag` keeps the types distinct.
template <class Tag>
struct opaque_byte {
    uint8_t bits = 0;
    opaque_byte() = default;
    constexpr explicit opaque_byte(uint8_t b) : bits(b) {}
    friend constexpr bool operator==(opaque_byte a, opaque_byte b) { return a.bits == b.bits; }
};
struct tag_fp8_e4m3;
struct tag_fp8_e5m2;
struct tag_fp8_e8m0;
struct tag_hif8;
struct tag_fp4_e2m1x2;
struct tag_fp4_e1m2x2;
struct tag_int4x2;
}  // namespace AscendC::detail

// bisheng's names, at global scope as device code uses them.
using float8_e4m3_t = ::AscendC::detail::opaque_byte<::AscendC::detail::tag_fp8_e4m3>;
using float8_e5m2_t = ::AscendC::detail::opaque_byte<::AscendC::detail::tag_fp8_e5m2>;
using float8_e8m0_t = ::AscendC::detail::opaque_byte<::AscendC::detail::tag_fp8_e8m0>;
using hifloat8_t = ::AscendC::detail::opaque_byte<::AscendC::detail::tag_hif8>;
// Two 4-bit values per byte.
using float4_e2m1x2_t = ::AscendC::detail::opaque_byte<::AscendC::detail::tag_fp4_e2m1x2>;
using float4_e1m2x2_t = ::AscendC::detail::opaque_byte<::AscendC::detail::tag_fp4_e1m2x2>;
using fp8_e4m3fn_t = float8_e4m3_t;
using fp8_e5m2_t = float8_e5m2_t;
using fp8_e8m0_t = float8_e8m0_t;
using fp4x2_e2m1_t = float4_e2m1x2_t;
using fp4x2_e1m2_t = float4_e1m2x2_t;

namespace AscendC {

using ::fp8_e8m0_t;
using ::hifloat8_t;
// A signed 4-bit integer; stored here as one byte per pair (SizeOfBits says 4).
using int4b_t = detail::opaque_byte<detail::tag_int4x2>;
// The MX (microscaling) element types: fp8 data whose scale is a separate fp8_e8m0_t.
struct mx_fp8_e4m3_t : ::float8_e4m3_t {};
struct mx_fp8_e5m2_t : ::float8_e5m2_t {};

// Logical width in bits; 4 for the sub-byte types, whose sizeof is their storage of one byte.
template <class T>
struct SizeOfBits {
    static constexpr uint32_t value = sizeof(T) * 8;
};
template <>
struct SizeOfBits<int4b_t> {
    static constexpr uint32_t value = 4;
};
template <>
struct SizeOfBits<::float4_e2m1x2_t> {
    static constexpr uint32_t value = 4;
};
template <>
struct SizeOfBits<::float4_e1m2x2_t> {
    static constexpr uint32_t value = 4;
};

// The graph-engine data type codes (ge::DataType), as tiling data carries them.
enum DataType : int32_t {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT32 = 3,
    DT_UINT8 = 4,
    DT_INT16 = 6,
    DT_UINT16 = 7,
    DT_UINT32 = 8,
    DT_INT64 = 9,
    DT_UINT64 = 10,
    DT_DOUBLE = 11,
    DT_BOOL = 12,
    DT_BF16 = 27,
    DT_INT4 = 29,
    DT_FLOAT8_E5M2 = 35,
    DT_FLOAT8_E4M3FN = 36,
    DT_FLOAT8_E8M0 = 37,
    DT_FLOAT4_E2M1 = 40,
    DT_FLOAT4_E1M2 = 41,
};

}  // namespace AscendC
