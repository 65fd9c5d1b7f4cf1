// Rule: two buffer sets of the EVG at ComputeLength fit the arch's UB (AtlasA2, 3 half nodes: at most 16384).
// expect-error: BlockEpilogue: two buffer sets of this EVG at this ComputeLength do not fit the arch's UB
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
static_assert(check_compute_length<Graph, Arch::AtlasA2, kCl>());

int main() {}
