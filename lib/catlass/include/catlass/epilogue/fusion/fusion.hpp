// The EVG umbrella (docs/evg-semantics.md §1): functors, the visitor bases, every node, TreeVisitor and
// TopologicalVisitor.
#pragma once

#include "catlass/epilogue/fusion/operations.hpp"
#include "catlass/epilogue/fusion/visitor_impl.hpp"
#include "catlass/epilogue/fusion/visitor_impl_base.hpp"

#include "catlass/epilogue/fusion/visitor_acc_load.hpp"
#include "catlass/epilogue/fusion/visitor_aux_load.hpp"
#include "catlass/epilogue/fusion/visitor_aux_store.hpp"
#include "catlass/epilogue/fusion/visitor_cast.hpp"
#include "catlass/epilogue/fusion/visitor_col_broadcast.hpp"
#include "catlass/epilogue/fusion/visitor_col_reduce.hpp"
#include "catlass/epilogue/fusion/visitor_compute.hpp"
#include "catlass/epilogue/fusion/visitor_row_broadcast.hpp"
#include "catlass/epilogue/fusion/visitor_row_reduce.hpp"
#include "catlass/epilogue/fusion/visitor_scalar_broadcast.hpp"
#include "catlass/epilogue/fusion/visitor_scalar_reduce.hpp"

#include "catlass/epilogue/fusion/topological_visitor.hpp"
#include "catlass/epilogue/fusion/tree_visitor.hpp"
