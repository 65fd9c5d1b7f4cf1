// run_on_model's kernels on AtlasA2 (GM workspace path only).
#include "run_impl.hpp"

namespace evg::graph::detail {
void launch_atlas_a2(const Problem& p, const DeviceBuffers& b, uint32_t block_dim, Swizzle swizzle) {
    launch_path<Catlass::Arch::AtlasA2, false>(p, b, block_dim, swizzle);
}
}  // namespace evg::graph::detail
