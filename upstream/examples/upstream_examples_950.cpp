// Upstream's seven EVG example programs with upstream's own kernels, on the model (example_programs.hpp holds
// the host code). Compiled against a Catlass checkout for Ascend950 (evgcheck_use_catlass in
// upstream/CMakeLists.txt): every Catlass name here is upstream's; only the launch inside DeviceGemm is
// evgcheck's stand-in.

#include "acl/kernel_order.hpp"
#include "catlass/arch/arch.hpp"
#include "catlass/catlass.hpp"
#include "catlass/epilogue/block/block_epilogue.hpp"
#include "catlass/epilogue/fusion/fusion.hpp"
#include "catlass/gemm/block/block_mmad.hpp"
#include "catlass/gemm/block/block_swizzle.hpp"
#include "catlass/gemm/device/device_gemm.hpp"
#include "catlass/gemm/dispatch_policy.hpp"
#include "catlass/gemm/gemm_type.hpp"
#include "catlass/gemm/kernel/basic_matmul_tla_ub_visitor.hpp"
#include "catlass/gemm/kernel/basic_matmul_tla_visitor.hpp"
#include "catlass/layout/layout.hpp"
#include "catlass/status.hpp"
#include "example_programs.hpp"
#include "tla/layout.hpp"

namespace evg::upstream {
namespace {

using namespace programs;

// Upstream's BlockMmadTla takes its tile copies as a parameter: the GM hand-over (PackedTileCopyTla) or the
// L0C -> UB one split by rows between the two AIVs (PackedTileCopyTlaToUB, SPLIT_M), as the examples choose.
struct UpstreamLib {
    using TileCopyGm =
        Gemm::Tile::PackedTileCopyTla<ArchTag, Element, LayoutTag, Element, LayoutTag, Element, LayoutTag>;
    using TileCopyUb =
        Gemm::Tile::PackedTileCopyTlaToUB<ArchTag, Element, LayoutTag, Element, LayoutTag, Element, LayoutTag,
                                          void, Gemm::Tile::CopyL0CToUBMode::SPLIT_M>;
    template <bool UB_PATH>
    using BlockMmad = Gemm::Block::BlockMmadTla<MmadPolicy, L1Tile, L0Tile, Element, Element, Element, void,
                                                std::conditional_t<UB_PATH, TileCopyUb, TileCopyGm>>;
};

}  // namespace

ExampleRun run_example_950(Example e, const ExampleShape& s, const ExampleData& data, uint32_t block_dim,
                           const hw::Config& config) {
    return programs::run_example<UpstreamLib>(e, s, data, block_dim, config);
}

bool examples_950_left_to_right() {
    return acl::program_in_bishengs_order().value_or(false);
}

}  // namespace evg::upstream
