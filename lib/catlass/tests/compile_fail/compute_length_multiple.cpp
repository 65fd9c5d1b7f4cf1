// Rule: BlockEpilogue's ComputeLength is a multiple of 32 elements (it calls check_compute_length).
// expect-error: BlockEpilogue: ComputeLength must be a multiple of 32 elements
#include "catlass/epilogue/block/block_epilogue.hpp"
#include "drive.hpp"

using namespace snippet;
using Graph =
    TreeVisitor<VisitorAuxStore<half, L>,
                TreeVisitor<VisitorCompute<Add, half>, VisitorAccLoad<half>, VisitorAuxLoad<half, L>>>;
#ifdef EVG_CASE_BAD
constexpr uint32_t kCl = 4100;
#else
constexpr uint32_t kCl = 4096;
#endif
// Instantiating the BlockEpilogue is what must fire: it checks its ComputeLength with check_compute_length.
using Epi = Epilogue::Block::BlockEpilogue<Epilogue::EpilogueVisitor<false>, Arch::AtlasA2, tla::Int<kCl>,
                                           Graph, half>;
static_assert(sizeof(Epi) > 0);

int main() {}
