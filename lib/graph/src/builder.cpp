#include "evg/graph/builder.hpp"

#include <utility>

namespace evg::graph {

void GraphBuilder::input(std::string name, DType element, int64_t rows, int64_t cols, int64_t row_stride) {
    g_.tensors.push_back(Tensor{
        std::move(name), TensorRole::Input, element, rows, cols, row_stride == 0 ? cols : row_stride, {}});
}

void GraphBuilder::output(std::string name, DType element, int64_t rows, int64_t cols, int64_t row_stride) {
    g_.tensors.push_back(Tensor{
        std::move(name), TensorRole::Output, element, rows, cols, row_stride == 0 ? cols : row_stride, {}});
}

int GraphBuilder::add(Node node) {
    g_.nodes.push_back(std::move(node));
    return static_cast<int>(g_.nodes.size()) - 1;
}

int GraphBuilder::tensor_node(NodeKind kind, DType element, std::string tensor, std::vector<int> inputs,
                              Functor fn) {
    Node n;
    n.kind = kind;
    n.element = element;
    n.tensor = std::move(tensor);
    n.inputs = std::move(inputs);
    n.fn = fn;
    return add(std::move(n));
}

int GraphBuilder::acc_load(DType element, bool use_ub) {
    Node n;
    n.kind = NodeKind::AccLoad;
    n.element = element;
    n.use_ub = use_ub;
    return add(std::move(n));
}

int GraphBuilder::aux_load(DType element, std::string tensor) {
    return tensor_node(NodeKind::AuxLoad, element, std::move(tensor), {}, Functor::Add);
}

int GraphBuilder::aux_store(DType element, std::string tensor, int input) {
    return tensor_node(NodeKind::AuxStore, element, std::move(tensor), {input}, Functor::Add);
}

int GraphBuilder::cast(DType to, DType from, RoundMode round, int input) {
    Node n;
    n.kind = NodeKind::Cast;
    n.element = to;
    n.from = from;
    n.round = round;
    n.inputs = {input};
    return add(std::move(n));
}

int GraphBuilder::compute(Functor fn, DType element, std::vector<int> inputs, std::vector<double> scalars) {
    Node n;
    n.kind = NodeKind::Compute;
    n.element = element;
    n.fn = fn;
    n.inputs = std::move(inputs);
    n.scalars = std::move(scalars);
    return add(std::move(n));
}

int GraphBuilder::row_broadcast(DType element, std::string tensor) {
    return tensor_node(NodeKind::RowBroadcast, element, std::move(tensor), {}, Functor::Add);
}
int GraphBuilder::col_broadcast(DType element, std::string tensor) {
    return tensor_node(NodeKind::ColBroadcast, element, std::move(tensor), {}, Functor::Add);
}
int GraphBuilder::scalar_broadcast(DType element, std::string tensor) {
    return tensor_node(NodeKind::ScalarBroadcast, element, std::move(tensor), {}, Functor::Add);
}
int GraphBuilder::row_reduce(Functor fn, DType element, std::string tensor, int input) {
    return tensor_node(NodeKind::RowReduce, element, std::move(tensor), {input}, fn);
}
int GraphBuilder::col_reduce(Functor fn, DType element, std::string tensor, int input) {
    return tensor_node(NodeKind::ColReduce, element, std::move(tensor), {input}, fn);
}
int GraphBuilder::scalar_reduce(Functor fn, DType element, std::string tensor, int input) {
    return tensor_node(NodeKind::ScalarReduce, element, std::move(tensor), {input}, fn);
}

}  // namespace evg::graph
