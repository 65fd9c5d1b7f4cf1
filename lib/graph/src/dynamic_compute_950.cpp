// DynamicVisitor's Compute instantiations for Ascend950.
#include "dynamic_compute.hpp"

namespace evg::graph::dynamic {
template OpPtr<Catlass::Arch::Ascend950> make_compute_op<Catlass::Arch::Ascend950>(const Node&);
}  // namespace evg::graph::dynamic
