// A stand-in for a Catlass header in call_chain_test.cpp: the test registers this folder as Catlass's, and a
// chain captured here must name this line as Catlass's and the test's calling line as the user's.
#pragma once

#include <cstdint>

#include "evg/hw/call_chain.hpp"

namespace library {

[[gnu::noinline]] inline uint32_t issue_from_library(int depth) {
    if (depth > 0) return issue_from_library(depth - 1);
    return evg::hw::capture_call_chain();  // the library's line (call_chain_test.cpp)
}

}  // namespace library
