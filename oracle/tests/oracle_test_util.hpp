// Helpers shared by the oracle's tests: small row-major matrices and bit-pattern expectations.
#pragma once
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "evg/oracle/host_tensor.hpp"
#include "evg/oracle/numeric.hpp"
#include "evg/oracle/values.hpp"

namespace evg::oracle::test {

inline constexpr evg::hw::DType F16 = evg::hw::DType::f16, F32 = evg::hw::DType::f32;
inline const Real kInf = std::numeric_limits<Real>::infinity();
inline const Real kNaN = std::numeric_limits<Real>::quiet_NaN();
inline Real p2(int e) {
    return std::ldexp(Real(1), e);
}

// A rows x cols matrix from values listed row by row.
inline Values mat(Eigen::Index rows, Eigen::Index cols, std::initializer_list<Real> v) {
    EXPECT_EQ(static_cast<Eigen::Index>(v.size()), rows * cols);
    Values m(rows, cols);
    auto it = v.begin();
    for (Eigen::Index r = 0; r < rows; ++r)
        for (Eigen::Index c = 0; c < cols; ++c) m(r, c) = *it++;
    return m;
}

// Expects every entry of `got`, stored as dtype t, to have the listed bit pattern (row by row). A NaN
// pattern in `want` accepts any NaN, since the sign of a NaN produced by arithmetic is not specified.
inline void expect_bits(const Values& got, DType t, std::initializer_list<std::uint64_t> want,
                        const std::string& what = "") {
    ASSERT_EQ(static_cast<Eigen::Index>(want.size()), got.size()) << what;
    auto it = want.begin();
    for (Eigen::Index r = 0; r < got.rows(); ++r) {
        for (Eigen::Index c = 0; c < got.cols(); ++c, ++it) {
            const Real v = got(r, c);
            if (std::isnan(decode(t, *it))) {
                EXPECT_TRUE(std::isnan(v))
                    << what << " (" << r << "," << c << ") = " << static_cast<double>(v);
                continue;
            }
            EXPECT_EQ(encode(t, v), *it) << what << " (" << r << "," << c << ") = " << static_cast<double>(v)
                                         << " expected bits 0x" << std::hex << *it;
            // the value must already be of type t: storing it may not round
            EXPECT_EQ(decode(t, encode(t, v)), v)
                << what << " (" << r << "," << c << ") is not a " << dtype_label(t);
        }
    }
}

}  // namespace evg::oracle::test

#include "evg/graph/graph.hpp"

namespace evg::oracle::test {

// A problem built node by node (the test's own small builder, so the oracle's tests depend only on the
// graph structures). Every node call returns the new node's index; the last node added is the root.
struct ProblemBuilder {
    graph::Problem p;

    ProblemBuilder(std::int64_t m, std::int64_t n, std::int64_t k, DType a, DType b, DType c) {
        p.m = m;
        p.n = n;
        p.k = k;
        p.a = a;
        p.b = b;
        p.c = c;
    }
    void tensor(std::string name, graph::TensorRole role, DType t, std::int64_t rows, std::int64_t cols,
                std::int64_t stride = 0) {
        graph::Tensor x;
        x.name = std::move(name);
        x.role = role;
        x.element = t;
        x.rows = rows;
        x.cols = cols;
        x.row_stride = stride == 0 ? cols : stride;
        p.graph.tensors.push_back(x);
    }
    void input(std::string name, DType t, std::int64_t rows, std::int64_t cols, std::int64_t stride = 0) {
        tensor(std::move(name), graph::TensorRole::Input, t, rows, cols, stride);
    }
    void output(std::string name, DType t, std::int64_t rows, std::int64_t cols, std::int64_t stride = 0) {
        tensor(std::move(name), graph::TensorRole::Output, t, rows, cols, stride);
    }
    int add(graph::NodeKind kind, DType t, std::vector<int> inputs, std::string tensor = "",
            graph::Functor fn = graph::Functor::Add) {
        graph::Node n;
        n.kind = kind;
        n.element = t;
        n.inputs = std::move(inputs);
        n.tensor = std::move(tensor);
        n.fn = fn;
        p.graph.nodes.push_back(n);
        return static_cast<int>(p.graph.nodes.size()) - 1;
    }
    int acc() { return add(graph::NodeKind::AccLoad, p.c, {}); }
    int aux(DType t, std::string name) { return add(graph::NodeKind::AuxLoad, t, {}, std::move(name)); }
    int store(DType t, std::string name, int in) {
        return add(graph::NodeKind::AuxStore, t, {in}, std::move(name));
    }
    int cast(DType to, DType from, RoundMode m, int in) {
        const int i = add(graph::NodeKind::Cast, to, {in});
        p.graph.nodes.back().from = from;
        p.graph.nodes.back().round = m;
        return i;
    }
    int compute(graph::Functor fn, DType t, std::vector<int> ins, std::vector<double> scalars = {}) {
        const int i = add(graph::NodeKind::Compute, t, std::move(ins), "", fn);
        p.graph.nodes.back().scalars = std::move(scalars);
        return i;
    }
    int row_bcast(DType t, std::string name) {
        return add(graph::NodeKind::RowBroadcast, t, {}, std::move(name));
    }
    int col_bcast(DType t, std::string name) {
        return add(graph::NodeKind::ColBroadcast, t, {}, std::move(name));
    }
    int scalar_bcast(DType t, std::string name) {
        return add(graph::NodeKind::ScalarBroadcast, t, {}, std::move(name));
    }
    int row_reduce(graph::Functor fn, DType t, std::string name, int in) {
        return add(graph::NodeKind::RowReduce, t, {in}, std::move(name), fn);
    }
    int col_reduce(graph::Functor fn, DType t, std::string name, int in) {
        return add(graph::NodeKind::ColReduce, t, {in}, std::move(name), fn);
    }
    int scalar_reduce(graph::Functor fn, DType t, std::string name, int in) {
        return add(graph::NodeKind::ScalarReduce, t, {in}, std::move(name), fn);
    }
};

// The values of a host tensor, element by element.
inline std::vector<Real> values_of(const HostTensor& t) {
    std::vector<Real> v;
    for (std::size_t i = 0; i < t.size(); ++i) v.push_back(t.value(i));
    return v;
}

}  // namespace evg::oracle::test
