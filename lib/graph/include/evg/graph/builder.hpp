// Builds a Graph in code, one node at a time; every call returns the new node's index.
//
//   GraphBuilder b;
//   b.input("X", DType::f16, m, n);
//   b.output("D", DType::f16, m, n);
//   int acc = b.acc_load(DType::f16);
//   int x   = b.aux_load(DType::f16, "X");
//   int add = b.compute(Functor::Add, DType::f16, {acc, x});
//   b.aux_store(DType::f16, "D", add);          // the last node added is the root
//   Graph g = b.graph();
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "evg/graph/graph.hpp"

namespace evg::graph {

class GraphBuilder {
  public:
    // External tensors; row_stride 0 means dense (= cols).
    void input(std::string name, DType element, int64_t rows, int64_t cols, int64_t row_stride = 0);
    void output(std::string name, DType element, int64_t rows, int64_t cols, int64_t row_stride = 0);

    int acc_load(DType element, bool use_ub = false);
    int aux_load(DType element, std::string tensor);
    int aux_store(DType element, std::string tensor, int input);
    int cast(DType to, DType from, RoundMode round, int input);
    int compute(Functor fn, DType element, std::vector<int> inputs, std::vector<double> scalars = {});
    int row_broadcast(DType element, std::string tensor);
    int col_broadcast(DType element, std::string tensor);
    int scalar_broadcast(DType element, std::string tensor);
    int row_reduce(Functor fn, DType element, std::string tensor, int input);
    int col_reduce(Functor fn, DType element, std::string tensor, int input);
    int scalar_reduce(Functor fn, DType element, std::string tensor, int input);
    // Any node as is (no checks); returns its index.
    int add(Node node);

    const Graph& graph() const { return g_; }

  private:
    int tensor_node(NodeKind kind, DType element, std::string tensor, std::vector<int> inputs, Functor fn);
    Graph g_;
};

}  // namespace evg::graph
