// Shared by the node tests: a GM/UB harness that drives one node, or a small chain, through LOAD, COMPUTE
// and STORE with BlockEpilogue's event sequence written out by hand, and reads the stages back from the
// trace.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "catlass/arch/arch.hpp"
#include "catlass/arch/resource.hpp"
#include "catlass/epilogue/fusion/fusion.hpp"
#include "catlass/layout/layout.hpp"
#include "catlass/tla/layout.hpp"
#include "catlass/tla/tensor.hpp"
#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

namespace F = Catlass::Epilogue::Fusion;
using Catlass::MatrixCoord;
using Catlass::Arch::Ascend950;
using Catlass::Arch::AtlasA2;
using evg::hw::ViolationKind;
using F::VisitStage;
using Ops = std::vector<std::string>;
inline const std::string kBar = "PipeBarrier<PIPE_V>";  // the barrier as a stage's ops name it

// ---- the event dance of one tile (BlockEpilogue::run_tile) --------------------------------------------

inline void prologue() {
    AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(0);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(1);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(0);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(1);
}
inline void epilogue() {
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(1);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(1);
}
// `stage` is a generic lambda called as stage.template operator()<Stage>().
template <class StageFn>
void run_tile(int id, StageFn&& stage) {
    using AscendC::HardEvent;
    AscendC::WaitFlag<HardEvent::V_MTE2>(id);
    stage.template operator()<VisitStage::LOAD>();
    AscendC::SetFlag<HardEvent::MTE2_V>(id);
    AscendC::WaitFlag<HardEvent::MTE2_V>(id);
    AscendC::WaitFlag<HardEvent::MTE3_V>(id);
    stage.template operator()<VisitStage::COMPUTE>();
    AscendC::SetFlag<HardEvent::V_MTE2>(id);
    AscendC::SetFlag<HardEvent::V_MTE3>(id);
    AscendC::WaitFlag<HardEvent::V_MTE3>(id);
    stage.template operator()<VisitStage::STORE>();
    AscendC::SetFlag<HardEvent::MTE3_V>(id);
}

// The instructions of each stage of each tile, cut out of the trace by the dance's own flags.
struct TileOps {
    Ops load, compute, store;
    bool loaded = false;  // the load segment was closed by SetFlag<MTE2_V>
};
inline std::vector<TileOps> stage_ops(const evg::hw::Trace& trace) {  // in issue (id) order
    std::vector<TileOps> tiles;
    Ops* cur = nullptr;
    std::string end;
    for (const auto& e : trace) {
        const std::string op(e.op());
        if (cur) {
            if (op.rfind(end, 0) == 0) {
                if (cur == &tiles.back().load) tiles.back().loaded = true;
                cur = nullptr;
                continue;
            }
            cur->push_back(op);
            continue;
        }
        if (op.rfind("WaitFlag<V_MTE2>", 0) == 0) {
            tiles.emplace_back();
            cur = &tiles.back().load;
            end = "SetFlag<MTE2_V>";
        } else if (op.rfind("WaitFlag<MTE3_V>", 0) == 0 && !tiles.empty()) {
            cur = &tiles.back().compute;
            end = "SetFlag<V_MTE2>";
        } else if (op.rfind("WaitFlag<V_MTE3>", 0) == 0 && !tiles.empty()) {
            cur = &tiles.back().store;
            end = "SetFlag<MTE3_V>";
        }
    }
    // The epilogue's WaitFlag<V_MTE2> opens a "tile" that never loads: drop it.
    while (!tiles.empty() && !tiles.back().loaded) tiles.pop_back();
    return tiles;
}

// ---- GM helpers -----------------------------------------------------------------------------------

template <class T>
struct Buf {
    GM_ADDR ptr = nullptr;
    size_t n = 0;
};
struct Gm {
    evg::hw::Device dev;
    template <class T>
    Buf<T> put(const std::vector<T>& host, const char* name) {
        void* p = dev.malloc(host.size() * sizeof(T), name);
        dev.copy_to_device(p, host.data(), host.size() * sizeof(T));
        return {static_cast<GM_ADDR>(p), host.size()};
    }
    template <class T>
    std::vector<T> get(const Buf<T>& b) {
        std::vector<T> out(b.n);
        dev.copy_to_host(out.data(), b.ptr, b.n * sizeof(T));
        return out;
    }
    template <class ArchTag, class K>
    const evg::hw::Report& run(K&& kernel) {
        return dev.launch(1, evg::hw::KernelType::aiv_only, kernel, ArchTag::EVG_ARCH);
    }
};

template <class T>
AscendC::GlobalTensor<T> gm_tensor(GM_ADDR p) {
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer(reinterpret_cast<T*>(p));
    return g;
}
// The tile of the (m x n) C matrix at `coord` with `shape` (what BlockEpilogue passes as tensorTile).
template <class T>
auto c_tile(GM_ADDR c, uint32_t m, uint32_t n, MatrixCoord coord, MatrixCoord shape) {
    auto t = tla::MakeTensor(gm_tensor<T>(c), tla::MakeLayout<T, Catlass::layout::RowMajor>(m, n));
    return tla::GetTile(t, coord, shape);
}
inline MatrixCoord aligned(MatrixCoord shape) {
    return {shape.row(), Catlass::RoundUp<32>(shape.column())};
}

}  // namespace
