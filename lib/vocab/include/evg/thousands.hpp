// Numbers as reports print them: 196608 -> "196,608".
#pragma once
#include <cstdint>
#include <string>

namespace evg {

std::string thousands(uint64_t v);

}  // namespace evg
