// run_on_model's kernels on AtlasA2 (GM workspace path only).
#include "run_impl.hpp"

namespace evg::graph::detail {
void launch_atlas_a2(const Problem& p, const DeviceBuffers& b, const RunOptions& options) {
    launch_path<Catlass::Arch::AtlasA2, false>(p, b, options);
}
}  // namespace evg::graph::detail
