// The names of RoundMode (docs/hardware-model.md §7).
#include "evg/hw/numeric/round_mode.hpp"

#include <string_view>

namespace evg::hw {

std::string_view round_mode_name(RoundMode m) {
    switch (m) {
        case RoundMode::CAST_NONE:
            return "CAST_NONE";
        case RoundMode::CAST_RINT:
            return "CAST_RINT";
        case RoundMode::CAST_FLOOR:
            return "CAST_FLOOR";
        case RoundMode::CAST_CEIL:
            return "CAST_CEIL";
        case RoundMode::CAST_ROUND:
            return "CAST_ROUND";
        case RoundMode::CAST_TRUNC:
            return "CAST_TRUNC";
        case RoundMode::CAST_ODD:
            return "CAST_ODD";
        case RoundMode::UNKNOWN:
            return "UNKNOWN";
    }
    return "CAST_UNKNOWN";
}

}  // namespace evg::hw
