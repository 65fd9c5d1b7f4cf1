// DynamicVisitor's Cast instantiations for AtlasA2.
#include "dynamic_cast.hpp"

namespace evg::graph::dynamic {
template OpPtr<Catlass::Arch::AtlasA2> make_cast_op<Catlass::Arch::AtlasA2>(const Node&);
}  // namespace evg::graph::dynamic
