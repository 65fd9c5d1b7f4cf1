// Epilogue dispatch policies: MASTER's EpilogueVisitor<USE_UB_WORKSPACE> and the L1 lineage's names.
#pragma once
#include "catlass/arch/arch.hpp"

namespace Catlass::Epilogue {

template <bool USE_UB_WORKSPACE_ = false>
struct EpilogueVisitor {
    static constexpr bool USE_UB_WORKSPACE = USE_UB_WORKSPACE_;
};

// Seed 000 (L1 lineage) policies: AtlasA2, GM workspace.
struct EpilogueAtlasA2Visitor {
    using ArchTag = Arch::AtlasA2;
    static constexpr bool USE_UB_WORKSPACE = false;
};
struct EpilogueAtlasA2PreloadAsyncVisitor {
    using ArchTag = Arch::AtlasA2;
    static constexpr bool USE_UB_WORKSPACE = false;
};

}  // namespace Catlass::Epilogue
