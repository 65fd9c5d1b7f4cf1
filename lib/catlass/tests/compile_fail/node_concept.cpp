// Rule: every op of an EVG follows the node concept (node_concept.hpp); a user's node without ElementOutput
// fails with one sentence.
// expect-error: EVG node concept: an op declares `using ElementOutput`
#include "drive.hpp"

using namespace snippet;

// A user's node: Relu written by hand as a pass-through of its input.
template <bool WithElementOutput>
struct MyPassThrough : VisitorImpl<> {
    static constexpr std::array<UbAccounting::NodeBuffers, 1> UB_NODES = {
        UbAccounting::node_buffers(UbAccounting::NodeClass::AuxStore, sizeof(float))};
    struct Arguments {};
    struct Params {};
    template <class S>
    static constexpr Params to_underlying_arguments(const S&, const Arguments&, void*) {
        return {};
    }
    template <class S>
    static size_t get_workspace_size(const S&, const Arguments&) {
        return 0;
    }
    template <class S>
    static bool can_implement(const S&, const Arguments&) {
        return true;
    }
    template <class S>
    static Status initialize_workspace(const S&, const Arguments&, void*) {
        return Status::kSuccess;
    }
    MyPassThrough() = default;
    explicit MyPassThrough(const Params&) {}
    struct Callbacks : EmptyCallbacks {
        template <VisitStage Stage, class ArchTag, class TensorTile, class In>
        const In& visit(const TensorTile&, const MatrixCoord&, const MatrixCoord&, const In& in) {
            return in;
        }
    };
    template <class ArchTag>
    Callbacks get_callbacks(Arch::Resource<ArchTag>&, uint32_t&, uint32_t) {
        return {};
    }
};
template <>
struct MyPassThrough<true> : MyPassThrough<false> {
    using ElementOutput = float;
    using MyPassThrough<false>::MyPassThrough;
};

#ifdef EVG_CASE_BAD
using Mine = MyPassThrough<false>;
#else
using Mine = MyPassThrough<true>;
#endif
using Graph = TreeVisitor<VisitorAuxStore<float, L>, TreeVisitor<Mine, VisitorAccLoad<float>>>;
int main() {
    drive<Graph>({{{}, {}}, {nullptr, L{}}});
}
