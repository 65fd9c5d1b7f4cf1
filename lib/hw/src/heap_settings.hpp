// The heap settings the first Device gives glibc (device.cpp) and the storage of memories relies on
// (memory.cpp): one value each, read by both.
#pragma once

#include <cstddef>

namespace evg::hw::detail {

// M_MMAP_THRESHOLD: blocks below it come from the heap, which keeps them between launches; GM blocks below it
// are taken from the heap too (memory.cpp), so that a launch's GM reuses what the last one freed. When the
// user sets glibc's malloc tunables the process keeps theirs, and calloc maps above their threshold by
// itself.
inline constexpr std::size_t kHeapMmapThreshold = std::size_t{32} << 20;
// M_TRIM_THRESHOLD: the heap is given back to the system only above this much free at its top.
inline constexpr std::size_t kHeapTrimThreshold = std::size_t{64} << 20;

}  // namespace evg::hw::detail
