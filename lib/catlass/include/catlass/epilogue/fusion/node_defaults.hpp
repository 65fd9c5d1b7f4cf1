// What the node kinds share: the host-side defaults (NodeHostDefaults) and the GM tensor a node with a tensor
// argument reads or writes (MakeGmTensor).
#pragma once
#include <cstddef>

#include "catlass/catlass.hpp"
#include "catlass/epilogue/fusion/visitor_impl.hpp"
#include "catlass/layout/layout.hpp"
#include "catlass/tla/layout.hpp"
#include "catlass/tla/tensor.hpp"

namespace Catlass::Epilogue::Fusion::detail {

// The host side of a node kind, as CUTLASS's leaf nodes inherit theirs: a node says `using Params =
// Arguments;` and needs no workspace, so its Params are its Arguments as given; a node without a GM tensor
// can always run, and one with a tensor declares its own can_implement (the pointer is set).
struct NodeHostDefaults : VisitorImpl<> {
    template <class ProblemShape, class Arguments>
    static constexpr Arguments to_underlying_arguments(const ProblemShape&, const Arguments& args, void*) {
        return args;
    }
    template <class ProblemShape, class Arguments>
    static size_t get_workspace_size(const ProblemShape&, const Arguments&) {
        return 0;
    }
    template <class ProblemShape, class Arguments>
    static bool can_implement(const ProblemShape&, const Arguments&) {
        return true;
    }
    template <class ProblemShape, class Arguments>
    static Status initialize_workspace(const ProblemShape&, const Arguments&, void*) {
        return Status::kSuccess;
    }
};

// The whole GM tensor at `ptr` that `layout` describes (a tla layout or a layout::RowMajor object), as a
// row-major tla tensor: (rows, cols) of the layout, at its row stride.
template <class Element, class Layout>
CATLASS_DEVICE auto MakeGmTensor(GM_ADDR ptr, const Layout& layout) {
    AscendC::GlobalTensor<Element> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ Element*>(ptr));
    return tla::MakeTensor(gm, tla::MakeLayout<Element, layout::RowMajor>(
                                   Catlass::detail::layout_rows(layout), Catlass::detail::layout_cols(layout),
                                   Catlass::detail::layout_row_stride(layout)));
}

}  // namespace Catlass::Epilogue::Fusion::detail
