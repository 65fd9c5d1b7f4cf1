// Shared by the compile-failure snippets: instantiates an EVG the way BlockEpilogue does (construct from
// Params, carve callbacks, visit the three stages), so a rule that fires must fire on real use.
#pragma once
#include <cstdint>

#include "catlass/arch/arch.hpp"
#include "catlass/arch/resource.hpp"
#include "catlass/epilogue/fusion/fusion.hpp"
#include "catlass/epilogue/fusion/static_checks.hpp"
#include "catlass/layout/layout.hpp"
#include "catlass/tla/layout.hpp"
#include "catlass/tla/tensor.hpp"

namespace snippet {

using namespace Catlass;
using namespace Catlass::Epilogue::Fusion;
using L = tla::RowMajorLayout;

template <class EVG, class ElementC = float, class ArchTag = Arch::AtlasA2>
void drive(const typename EVG::Arguments& args) {
    EVG evg(EVG::to_underlying_arguments(GemmCoord(8, 32, 8), args, nullptr));
    Arch::Resource<ArchTag> resource;
    uint32_t ub = 0;
    auto cbs = evg.get_callbacks(resource, ub, 256);
    AscendC::GlobalTensor<ElementC> c;  // the C tile AccLoad reads
    auto tile = tla::MakeTensor(c, tla::MakeLayout<ElementC, layout::RowMajor>(8, 32));
    cbs.template visit<VisitStage::LOAD, ArchTag>(tile, MatrixCoord(8, 32), MatrixCoord(0, 0));
    cbs.template visit<VisitStage::COMPUTE, ArchTag>(tile, MatrixCoord(8, 32), MatrixCoord(0, 0));
    cbs.template visit<VisitStage::STORE, ArchTag>(tile, MatrixCoord(8, 32), MatrixCoord(0, 0));
}

}  // namespace snippet
