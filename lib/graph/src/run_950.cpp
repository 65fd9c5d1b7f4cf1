// run_on_model's kernels on Ascend950, both workspace paths.
#include "run_impl.hpp"

namespace evg::graph::detail {
void launch_ascend950(const Problem& p, const DeviceBuffers& b, uint32_t block_dim, Swizzle swizzle) {
    if (p.path == WorkspacePath::UB)
        launch_path<Catlass::Arch::Ascend950, true>(p, b, block_dim, swizzle);
    else
        launch_path<Catlass::Arch::Ascend950, false>(p, b, block_dim, swizzle);
}
}  // namespace evg::graph::detail
