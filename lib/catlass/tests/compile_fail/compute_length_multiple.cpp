// Rule: BlockEpilogue's ComputeLength is a multiple of 32 elements (check_compute_length).
// expect-error: BlockEpilogue: ComputeLength must be a multiple of 32 elements
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
static_assert(check_compute_length<Graph, Arch::AtlasA2, kCl>());

int main() {}
