// Calls that upstream code names but the model does not execute. Each is declared with upstream's signature
// so that the headers compile; calling one stops the run with an error that names the call and the source
// line that issued it (file:line of the caller), and never does nothing silently.
#pragma once
#include "ascendc/types.hpp"

namespace AscendC::detail {

// Throws evg::hw::UnmodelledCall: "AscendC::<call> (issued at <file:line>) is declared but not modelled by
// evgcheck". The launch reports it and stops that core.
[[noreturn]] void unmodelled(const char* call, Site site);

}  // namespace AscendC::detail
