// Names and limits of the numeric-exception vocabulary (fp_scan.hpp).
#include "evg/hw/numeric/fp_scan.hpp"

namespace evg::hw {

const char* fp_class_name(FpClass c) {
    switch (c) {
        case FpClass::nan:
            return "NaN";
        case FpClass::pos_inf:
            return "+inf";
        case FpClass::neg_inf:
            return "-inf";
    }
    return "?";
}

double fp_max_finite(DType t) {
    switch (t) {
        case DType::f32:
            return 3.4028234663852886e38;  // (2 - 2^-23) * 2^127
        case DType::f16:
            return 65504.0;  // (2 - 2^-10) * 2^15
        case DType::bf16:
            return 3.3895313892515355e38;  // (2 - 2^-7) * 2^127
        default:
            return 0.0;
    }
}

}  // namespace evg::hw
