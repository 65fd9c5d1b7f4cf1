// Heap allocations of a benchmark process: alloc_count.cpp replaces the global operator new (every form), so
// that a benchmark can report allocations per case, per execution or per instruction (bench/README.md). Only
// C++ allocations count (the model, the checkers, the explorer, rapidcheck and fmt allocate through operator
// new); a plain malloc does not.
#pragma once
#include <cstdint>

namespace evg::bench {

// Allocations since the process started, on every thread.
uint64_t allocations();

}  // namespace evg::bench
