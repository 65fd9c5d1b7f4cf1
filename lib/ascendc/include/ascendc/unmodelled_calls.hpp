// The table of declared-only AscendC calls (unmodelled_calls.def) as data, for the docs and the tests.
#pragma once

namespace AscendC::detail {

struct UnmodelledCallInfo {
    const char* family;  // "Ascend950 register API", "System", ...
    const char* name;    // as the stop message names it: "MicroAPI::LoadAlign", "SyncAll"
    const char* chips;   // the chips the call exists on: "3510", "2201 3510"
};

inline constexpr UnmodelledCallInfo kUnmodelledCalls[] = {
#define EVG_UNMODELLED_REG(name, head, ret, req) {"Ascend950 register API", "MicroAPI::" #name, "3510"},
#define EVG_UNMODELLED_CALL(family, name, chips) {family, #name, chips},
#include "ascendc/unmodelled_calls.def"
};

}  // namespace AscendC::detail
