// DynamicVisitor's Cast instantiations for Ascend950.
#include "dynamic_cast.hpp"

namespace evg::graph::dynamic {
template OpPtr<Catlass::Arch::Ascend950> make_cast_op<Catlass::Arch::Ascend950>(const Node&);
}  // namespace evg::graph::dynamic
