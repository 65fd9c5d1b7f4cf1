// VisitStage and VisitorImplBase<Ops...>: Arguments/Params tuples, workspace sizing, can_implement and an
// initialize_workspace that really recurses into the ops (upstream's is hidden and does nothing, §11.2 item
// 1).
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>

#include "catlass/catlass.hpp"
#include "catlass/tla/tuple.hpp"

namespace Catlass::Epilogue::Fusion {

enum class VisitStage : uint8_t { LOAD = 0, COMPUTE = 1, STORE = 2 };

template <class... Ops>
struct VisitorImplBase {
    using Arguments = tla::tuple<typename Ops::Arguments...>;
    using Params = tla::tuple<typename Ops::Params...>;
    static constexpr size_t OP_COUNT = sizeof...(Ops);

    template <class ProblemShape>
    static size_t get_workspace_size(const ProblemShape& shape, const Arguments& args) {
        return workspace_sizes(shape, args, std::index_sequence_for<Ops...>{});
    }

    template <class ProblemShape>
    static bool can_implement(const ProblemShape& shape, const Arguments& args) {
        return [&]<size_t... I>(std::index_sequence<I...>) {
            return (true && ... && Ops::can_implement(shape, tla::get<I>(args)));
        }
        (std::index_sequence_for<Ops...>{});
    }

    // Each op gets its own 32-byte-rounded slice of the workspace, in op order.
    template <class ProblemShape>
    static Params to_underlying_arguments(const ProblemShape& shape, const Arguments& args, void* workspace) {
        return [&]<size_t... I>(std::index_sequence<I...>) {
            uint8_t* ws = static_cast<uint8_t*>(workspace);
            auto next = [&](size_t bytes) {
                uint8_t* here = ws;
                if (ws) ws += RoundUp<32>(bytes);
                return static_cast<void*>(here);
            };
            // A braced list evaluates left to right: op 0 takes the first slice.
            return Params{Ops::to_underlying_arguments(
                shape, tla::get<I>(args), next(Ops::get_workspace_size(shape, tla::get<I>(args))))...};
        }
        (std::index_sequence_for<Ops...>{});
    }

    // Initialises every op's workspace slice, stopping at the first failure.
    template <class ProblemShape>
    static Status initialize_workspace(const ProblemShape& shape, const Arguments& args, void* workspace) {
        Status st = Status::kSuccess;
        uint8_t* ws = static_cast<uint8_t*>(workspace);
        [&]<size_t... I>(std::index_sequence<I...>) {
            (void)((st == Status::kSuccess &&
                    ((st = Ops::initialize_workspace(shape, tla::get<I>(args), ws)),
                     ws = ws ? ws + RoundUp<32>(Ops::get_workspace_size(shape, tla::get<I>(args))) : ws,
                     st == Status::kSuccess)) &&
                   ...);
        }
        (std::index_sequence_for<Ops...>{});
        return st;
    }

    VisitorImplBase() = default;
    explicit VisitorImplBase(const Params& params)
        : ops([&]<size_t... I>(std::index_sequence<I...>) {
              return tla::tuple<Ops...>{Ops(tla::get<I>(params))...};
          }(std::index_sequence_for<Ops...>{})) {}

    tla::tuple<Ops...> ops;

  private:
    template <class ProblemShape, size_t... I>
    static size_t workspace_sizes(const ProblemShape& shape, const Arguments& args,
                                  std::index_sequence<I...>) {
        return (size_t{0} + ... + RoundUp<32>(Ops::get_workspace_size(shape, tla::get<I>(args))));
    }
};

}  // namespace Catlass::Epilogue::Fusion
