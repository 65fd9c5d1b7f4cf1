// The same seven example programs (example_programs.hpp) on evgcheck's own Catlass copy (lib/catlass), for
// the differential test against upstream's kernels (upstream_examples_950.cpp). Never sees a Catlass
// checkout.
#include "catlass/epilogue/block/block_epilogue.hpp"
#include "catlass/epilogue/fusion/fusion.hpp"
#include "catlass/gemm/gemm.hpp"
#include "example_programs.hpp"
#include "kernel_operator.h"
#include "ours_examples.hpp"

namespace evg::upstream {
namespace {

using namespace programs;

// evgcheck's BlockMmadTla picks its L0C hand-over from the destination tensor (GM workspace or the AIVs' UB).
struct OurLib {
    template <bool UB_PATH>
    using BlockMmad = Gemm::Block::BlockMmadTla<MmadPolicy, L1Tile, L0Tile, Element, Element, Element>;
};

}  // namespace

ExampleRun run_ours_950(Example e, const ExampleShape& s, const ExampleData& data, uint32_t block_dim,
                        const hw::Config& config) {
    return programs::run_example<OurLib>(e, s, data, block_dim, config);
}

}  // namespace evg::upstream
