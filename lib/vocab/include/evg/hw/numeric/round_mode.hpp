// RoundMode, the rounding of a vector Cast (docs/hardware-model.md §7), with its names. Vocabulary: the
// conversions that implement each mode are the machine's (evg/hw/numeric/convert.hpp, lib/hw).
#pragma once
#include <cstdint>
#include <string_view>

namespace evg::hw {

// Values and order match AscendC::RoundMode.
enum class RoundMode : uint8_t {
    CAST_NONE = 0,
    CAST_RINT,
    CAST_FLOOR,
    CAST_CEIL,
    CAST_ROUND,
    CAST_TRUNC,
    CAST_ODD,
    // AscendC's "no mode given" in the Ascend950 register API's cast traits (Reg::CastTrait), which the model
    // declares but does not execute. Not a conversion mode: no cast accepts it (kAllRoundModes leaves it
    // out).
    UNKNOWN
};
inline constexpr RoundMode kAllRoundModes[] = {
    RoundMode::CAST_NONE,  RoundMode::CAST_RINT,  RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
    RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC, RoundMode::CAST_ODD};
std::string_view round_mode_name(RoundMode m);  // "CAST_RINT", ...

}  // namespace evg::hw
