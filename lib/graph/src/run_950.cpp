// run_on_model's kernels on Ascend950, both workspace paths.
#include "run_impl.hpp"

namespace evg::graph::detail {
void launch_ascend950(const Problem& p, const DeviceBuffers& b, const RunOptions& options) {
    if (p.path == WorkspacePath::UB)
        launch_path<Catlass::Arch::Ascend950, true>(p, b, options);
    else
        launch_path<Catlass::Arch::Ascend950, false>(p, b, options);
}
}  // namespace evg::graph::detail
