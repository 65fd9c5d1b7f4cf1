// DynamicVisitor<ArchTag, ElementC, USE_UB>: an EVG whose structure is a runtime evg::graph::Graph, built
// from the library's own node types (VisitorAuxLoad, VisitorCompute, ...), type-erased over the node x dtype
// x functor x round-mode instantiations that validation accepts. It plugs into BlockEpilogue (with a run-time
// computeLength: tla::Int<0>) and the GEMM kernels unchanged.
//
// It issues what the static EVG that emit_cpp prints for the same graph issues:
// * a tree (emit_cpp's is_tree, at most 256 levels) runs as a TreeVisitor nest: UB carved in post-order
//   (children in order, then the node), every node visited once per stage, children first;
// * any other graph runs as a TopologicalVisitor: UB carved in node order, the root visited recursively with
//   inputs in edge order and each node's output cached per stage call (with
//   upstream_hazards().topo_store_per_consumer, AuxStore and the reduces are not cached); unreachable nodes
//   carve UB but are never visited.
// An n-ary Compute (3 or more inputs) is visited as a chain of binary visits of the same node, ((a op b) op
// c)
// ...: the node's PipeBarrier after each step is the barrier the functor puts between steps, so the
// instructions are those of the n-ary static node.
//
// Arguments: the graph (must outlive the Params), one GM pointer per graph tensor (graph.tensors order), the
// computeLength and the name of the text the graph was parsed from (for node labels). to_underlying_arguments
// validates the graph for the arch (throws ValidationError) and builds the erased ops once; the Params share
// them.
//
// Each node's callbacks (get_callbacks and every stage's visit) run inside an evg::ascendc::NodeScope named
// by graph::node_label ("%1 RowBroadcast float bias (graph.evg:6:1)"), so the model's findings name the node.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ascendc/evg_node_scope.hpp"
#include "catlass/arch/arch.hpp"
#include "catlass/arch/resource.hpp"
#include "catlass/catlass.hpp"
#include "catlass/coord.hpp"
#include "catlass/epilogue/fusion/ub_accounting.hpp"
#include "catlass/epilogue/fusion/upstream_hazards.hpp"
#include "catlass/epilogue/fusion/visitor_acc_load.hpp"
#include "catlass/epilogue/fusion/visitor_impl.hpp"
#include "catlass/tla/layout.hpp"
#include "catlass/tla/tensor.hpp"
#include "evg/graph/graph.hpp"
#include "evg/graph/ub_budget.hpp"
#include "kernel_operator.h"

namespace evg::graph {

namespace dynamic {

using Catlass::MatrixCoord;
using Catlass::Epilogue::Fusion::VisitStage;

// The tile BlockEpilogue hands to the EVG, erased: AccLoad reads `tile` (its real type is known to it),
// every other node uses only the shape.
struct TileRef {
    const void* tile = nullptr;
    MatrixCoord shape;
};

// The tile given to every node but AccLoad: a view with only its (clipped) shape set, which is all those
// nodes read of it.
using ShapeTile = tla::Tensor<AscendC::GlobalTensor<uint8_t>, tla::RowMajorLayout>;

// One node's callbacks in one buffer set. visit returns a pointer to the node's output LocalTensor<E> (E =
// Node::element); `inputs` point at the inputs' output LocalTensors.
template <class ArchTag>
struct NodeCallbacks {
    virtual ~NodeCallbacks() = default;
    virtual const void* visit(VisitStage stage, const TileRef& tile, const MatrixCoord& alignedTileShape,
                              const MatrixCoord& globalOffset, const void* const* inputs, size_t count) = 0;
    virtual AscendC::LocalTensor<uint8_t> bytes(const void* output) const = 0;
};

// One node: carves its UB and makes its callbacks, like the node's own get_callbacks.
template <class ArchTag>
struct NodeOp {
    virtual ~NodeOp() = default;
    virtual std::unique_ptr<NodeCallbacks<ArchTag>> get_callbacks(Catlass::Arch::Resource<ArchTag>& resource,
                                                                  uint32_t& ub_offset,
                                                                  uint32_t compute_length) const = 0;
};

// How a node takes its inputs: none (loads), exactly one, or a left-to-right chain of binary visits.
enum class InputForm : uint8_t { None, One, Chain };

template <class ArchTag, class NodeT, InputForm Form, class InputElement, class Tile>
class CallbacksImpl final : public NodeCallbacks<ArchTag> {
  public:
    using Output = AscendC::LocalTensor<typename NodeT::ElementOutput>;
    explicit CallbacksImpl(const typename NodeT::Callbacks& cb) : cb_(cb) {}

    const void* visit(VisitStage stage, const TileRef& tile, const MatrixCoord& alignedTileShape,
                      const MatrixCoord& globalOffset, const void* const* inputs, size_t count) override {
        switch (stage) {
            case VisitStage::LOAD:
                return run<VisitStage::LOAD>(tile, alignedTileShape, globalOffset, inputs, count);
            case VisitStage::COMPUTE:
                return run<VisitStage::COMPUTE>(tile, alignedTileShape, globalOffset, inputs, count);
            case VisitStage::STORE:
                break;
        }
        return run<VisitStage::STORE>(tile, alignedTileShape, globalOffset, inputs, count);
    }

    AscendC::LocalTensor<uint8_t> bytes(const void* output) const override {
        return static_cast<const Output*>(output)->template ReinterpretCast<uint8_t>();
    }

  private:
    using In = AscendC::LocalTensor<InputElement>;
    static const In& in(const void* p) { return *static_cast<const In*>(p); }

    template <VisitStage Stage>
    const void* run(const TileRef& ref, const MatrixCoord& aligned, const MatrixCoord& global,
                    const void* const* inputs, size_t count) {
        if constexpr (std::is_same_v<Tile, ShapeTile>) {
            ShapeTile tile;
            tile.origin_shape_ = ref.shape;
            return run_on<Stage>(tile, aligned, global, inputs, count);
        } else {
            return run_on<Stage>(*static_cast<const Tile*>(ref.tile), aligned, global, inputs, count);
        }
    }

    template <VisitStage Stage, class T>
    const void* run_on(const T& tile, const MatrixCoord& aligned, const MatrixCoord& global,
                       const void* const* inputs, size_t count) {
        if constexpr (Form == InputForm::None) {
            (void)inputs;
            (void)count;
            return &cb_.template visit<Stage, ArchTag>(tile, aligned, global);
        } else if constexpr (Form == InputForm::One) {
            (void)count;
            return &cb_.template visit<Stage, ArchTag>(tile, aligned, global, in(inputs[0]));
        } else {
            const Output* out =
                &cb_.template visit<Stage, ArchTag>(tile, aligned, global, in(inputs[0]), in(inputs[1]));
            for (size_t k = 2; k < count; ++k)
                out = &cb_.template visit<Stage, ArchTag>(tile, aligned, global, *out, in(inputs[k]));
            return out;
        }
    }

    typename NodeT::Callbacks cb_;
};

template <class ArchTag, class NodeT, InputForm Form, class InputElement, class Tile = ShapeTile>
class OpImpl final : public NodeOp<ArchTag> {
  public:
    explicit OpImpl(const typename NodeT::Params& params) : node_(params) {}

    std::unique_ptr<NodeCallbacks<ArchTag>> get_callbacks(Catlass::Arch::Resource<ArchTag>& resource,
                                                          uint32_t& ub_offset,
                                                          uint32_t compute_length) const override {
        NodeT node = node_;
        return std::make_unique<CallbacksImpl<ArchTag, NodeT, Form, InputElement, Tile>>(
            node.get_callbacks(resource, ub_offset, compute_length));
    }

  private:
    NodeT node_;
};

// Every node but AccLoad, for the arch (defined in src/dynamic_*.cpp for AtlasA2 and Ascend950). `tensor` is
// the node's external tensor (nullptr for Cast and Compute) and `ptr` its GM address. Throws GraphError for a
// node the instantiation tables do not hold (validation rejects all of those).
template <class ArchTag>
std::unique_ptr<NodeOp<ArchTag>> make_node_op(const Node& node, const Tensor* tensor, GM_ADDR ptr);

// The graph as the visitors run it, shared by every Params copy.
template <class ArchTag>
struct Program {
    std::vector<std::unique_ptr<NodeOp<ArchTag>>> ops;  // node order (AccLoad included)
    std::vector<std::string> labels;                    // node order: graph::node_label of each node
    std::vector<uint32_t> input_begin;                  // node i's inputs: inputs[input_begin[i] ..
    std::vector<uint32_t> input_end;                    //                          input_end[i])
    std::vector<int> inputs;
    std::vector<uint8_t> store_stage;     // AuxStore and the reduces
    std::vector<int> carve_order;         // post-order for a tree, node order otherwise
    std::vector<UbNodeBuffers> ub_nodes;  // in carve order: what UbAccounting sees
    int root = 0;
    bool tree = false;
    uint32_t compute_length = 0;
};

// Whether the graph runs as a TreeVisitor nest: graph::runs_as_tree (emit_cpp.hpp), the one rule for both.
// The order UB is carved in: post-order from the root for a tree, node order otherwise.
std::vector<int> carve_order(const Graph& g);

}  // namespace dynamic

template <class ArchTag_, class ElementC_, bool USE_UB_WORKSPACE_>
struct DynamicVisitor {
    using ArchTag = ArchTag_;
    using ElementC = ElementC_;
    static constexpr bool USE_UB_WORKSPACE = USE_UB_WORKSPACE_;
    // The root's output, as bytes: the root's element type is data.
    using ElementOutput = uint8_t;
    // What BlockEpilogue hands to visit: a view of the C workspace in GM, or of the MMAD result in UB.
    using TensorTile = std::conditional_t<
        USE_UB_WORKSPACE,
        tla::Tensor<AscendC::LocalTensor<ElementC>, tla::RowMajorLayout, Catlass::Arch::PositionUB>,
        tla::Tensor<AscendC::GlobalTensor<ElementC>, tla::RowMajorLayout, Catlass::Arch::PositionGM>>;
    using Program = dynamic::Program<ArchTag>;

    struct Arguments {
        const Graph* graph = nullptr;
        std::vector<GM_ADDR> tensors;  // one per graph->tensors entry, same order
        uint32_t compute_length = 0;
        std::string source;  // the file (or other text) the graph was parsed from; empty: "line L:C"
    };
    struct Params {
        std::shared_ptr<const Program> program;
    };

    template <class ProblemShape>
    static size_t get_workspace_size(const ProblemShape&, const Arguments&) {
        return 0;  // no node of the library uses workspace
    }
    template <class ProblemShape>
    static bool can_implement(const ProblemShape&, const Arguments& args) {
        if (args.graph == nullptr || args.tensors.size() != args.graph->tensors.size()) return false;
        return std::none_of(args.tensors.begin(), args.tensors.end(), [](GM_ADDR p) { return p == nullptr; });
    }
    template <class ProblemShape>
    static Catlass::Status initialize_workspace(const ProblemShape&, const Arguments&, void*) {
        return Catlass::Status::kSuccess;
    }
    template <class ProblemShape>
    static Params to_underlying_arguments(const ProblemShape&, const Arguments& args, void*) {
        return Params{build(args)};
    }

    DynamicVisitor() = default;
    explicit DynamicVisitor(const Params& params_) : params(params_) {}

    // The run-time computeLength and UB list BlockEpilogue<..., tla::Int<0>, ...> asks for.
    uint32_t compute_length() const { return params.program->compute_length; }
    std::span<const UbNodeBuffers> ub_nodes() const { return params.program->ub_nodes; }

    struct Callbacks : Catlass::Epilogue::Fusion::EmptyCallbacks {
        const Program* program = nullptr;
        std::vector<std::unique_ptr<dynamic::NodeCallbacks<ArchTag>>> nodes;  // node order
        std::vector<const void*> cache;
        std::vector<uint8_t> visited;
        std::vector<const void*> scratch;  // the inputs of every node, at the node's input_begin
        bool store_per_consumer = false;
        AscendC::LocalTensor<uint8_t> root_bytes;

        // On exit every node reachable from the root has been visited for this stage, as in the static EVG.
        template <Catlass::Epilogue::Fusion::VisitStage Stage, class ArchTagV, class Tile, class... Inputs>
        CATLASS_DEVICE const AscendC::LocalTensor<ElementOutput>& visit(
            const Tile& tensorTile, const Catlass::MatrixCoord& alignedTileShape,
            const Catlass::MatrixCoord& globalOffset, const Inputs&...) {
            static_assert(std::is_same_v<ArchTagV, ArchTag>, "DynamicVisitor: visited on another ArchTag");
            static_assert(
                std::is_same_v<Tile, TensorTile>,
                "DynamicVisitor: the tile is not the C tile type of this (ElementC, USE_UB) instance");
            std::fill(visited.begin(), visited.end(), uint8_t{0});
            const dynamic::TileRef ref{&tensorTile, tensorTile.shape()};
            const void* out = visit_node(program->root, Stage, ref, alignedTileShape, globalOffset);
            root_bytes = nodes[program->root]->bytes(out);
            return root_bytes;
        }

      private:
        const void* visit_node(int i, Catlass::Epilogue::Fusion::VisitStage stage,
                               const dynamic::TileRef& ref, const Catlass::MatrixCoord& aligned,
                               const Catlass::MatrixCoord& global) {
            if (visited[i] && !(store_per_consumer && program->store_stage[i])) return cache[i];
            const uint32_t begin = program->input_begin[i];
            const uint32_t end = program->input_end[i];
            for (uint32_t k = begin; k < end; ++k)
                scratch[k] = visit_node(program->inputs[k], stage, ref, aligned, global);
            const evg::ascendc::NodeScope scope(program->labels[i]);
            cache[i] = nodes[i]->visit(stage, ref, aligned, global, scratch.data() + begin, end - begin);
            visited[i] = 1;
            return cache[i];
        }
    };

    // Carves UB for every node in carve order, advancing ub_offset.
    template <class ArchTagV>
    CATLASS_DEVICE Callbacks get_callbacks(Catlass::Arch::Resource<ArchTagV>& resource, uint32_t& ub_offset,
                                           uint32_t compute_length) {
        static_assert(std::is_same_v<ArchTagV, ArchTag>, "DynamicVisitor: built for another ArchTag");
        const Program& p = *params.program;
        Callbacks cb;
        cb.program = &p;
        cb.nodes.resize(p.ops.size());
        for (int i : p.carve_order) {
            const evg::ascendc::NodeScope scope(p.labels[i]);
            cb.nodes[i] = p.ops[i]->get_callbacks(resource, ub_offset, compute_length);
        }
        cb.cache.assign(p.ops.size(), nullptr);
        cb.visited.assign(p.ops.size(), 0);
        cb.scratch.assign(p.inputs.size(), nullptr);
        cb.store_per_consumer =
            !p.tree && Catlass::Epilogue::Fusion::upstream_hazards().topo_store_per_consumer;
        return cb;
    }

    Params params;

  private:
    using AccLoad = Catlass::Epilogue::Fusion::VisitorAccLoad<ElementC, USE_UB_WORKSPACE>;
    using AccLoadOp = dynamic::OpImpl<ArchTag, AccLoad, dynamic::InputForm::None, uint8_t, TensorTile>;

    static std::shared_ptr<const Program> build(const Arguments& args);
};

namespace dynamic {
// Builds the program of a graph for the arch; AccLoad nodes become `acc_load()`. Checks the graph first
// (validate(g, arch); throws ValidationError) and the tensor pointers (throws GraphError).
template <class ArchTag>
void build_program(Program<ArchTag>& p, const Graph& g, std::span<const GM_ADDR> tensors,
                   uint32_t compute_length, DType element_c, bool use_ub,
                   std::unique_ptr<NodeOp<ArchTag>> (*acc_load)(), std::string_view source);
}  // namespace dynamic

template <class ArchTag_, class ElementC_, bool USE_UB_WORKSPACE_>
std::shared_ptr<const typename DynamicVisitor<ArchTag_, ElementC_, USE_UB_WORKSPACE_>::Program>
DynamicVisitor<ArchTag_, ElementC_, USE_UB_WORKSPACE_>::build(const Arguments& args) {
    if (args.graph == nullptr) throw std::invalid_argument("DynamicVisitor: Arguments::graph is null");
    auto program = std::make_shared<Program>();
    dynamic::build_program<ArchTag>(
        *program, *args.graph, args.tensors, args.compute_length, hw::dtype_of_v<ElementC>, USE_UB_WORKSPACE,
        +[]() -> std::unique_ptr<dynamic::NodeOp<ArchTag>> {
            return std::make_unique<AccLoadOp>(typename AccLoad::Params{});
        },
        args.source);
    return program;
}

}  // namespace evg::graph
