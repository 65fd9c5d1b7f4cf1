// Rule: two buffer sets of the EVG at ComputeLength fit the arch's UB (AtlasA2, 3 half nodes: at most 16384).
// expect-error: BlockEpilogue: two buffer sets of this EVG at this ComputeLength do not fit the arch's UB
#include "catlass/epilogue/block/block_epilogue.hpp"
#include "drive.hpp"

using namespace snippet;
using Graph =
    TreeVisitor<VisitorAuxStore<half, L>,
                TreeVisitor<VisitorCompute<Add, half>, VisitorAccLoad<half>, VisitorAuxLoad<half, L>>>;
static_assert(max_compute_length<Graph, Arch::AtlasA2>() == 16384);
#ifdef EVG_CASE_BAD
constexpr uint32_t kCl = 16384 + 32;
#else
constexpr uint32_t kCl = 16384;
#endif
// Instantiating the BlockEpilogue is what must fire: it checks its ComputeLength with check_compute_length.
using Epi = Epilogue::Block::BlockEpilogue<Epilogue::EpilogueVisitor<false>, Arch::AtlasA2, tla::Int<kCl>,
                                           Graph, half>;
static_assert(sizeof(Epi) > 0);

int main() {}
