// DynamicVisitor's Compute instantiations for AtlasA2.
#include "dynamic_compute.hpp"

namespace evg::graph::dynamic {
template OpPtr<Catlass::Arch::AtlasA2> make_compute_op<Catlass::Arch::AtlasA2>(const Node&);
}  // namespace evg::graph::dynamic
