// Which (source, destination, RoundMode) conversions each chip's vector Cast supports (docs/hardware-model.md
// §7).
#pragma once
#include <string>

#include "evg/hw/arch.hpp"
#include "evg/hw/numeric/dtype.hpp"
#include "evg/hw/numeric/round_mode.hpp"

namespace evg::hw {

struct CastRule {
    bool legal = false;
    // When illegal: a sentence naming the rule, e.g.
    // "Cast float -> bfloat16 with CAST_NONE is not supported on AtlasA2 (float -> bfloat16 allows CAST_RINT,
    //  CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC)".
    std::string reason;
};

CastRule cast_rule(ArchId arch, DType from, DType to, RoundMode m);
inline bool cast_legal(ArchId arch, DType from, DType to, RoundMode m) {
    return cast_rule(arch, from, to, m).legal;
}

}  // namespace evg::hw
