// The node suite on upstream Catlass's own implementation (`evgcheck conformance --catlass-root DIR`): each
// cell of conformance/upstream_cells.hpp was compiled into the upstream corpus against the checkout this
// build was configured with (EVG_CATLASS_ROOT), and runs here at the node suite's shapes of its path through
// upstream's kernel, judged by the one judge against the oracle (lib/verify; the UB rule off: the UB layout
// is upstream's). No compiler runs: a checkout other than the compiled one is refused, naming both.
//
// Two kinds of finding do not fail a case, and its message says so: the findings known_findings.txt lists
// (docs/upstream-findings.md, matched by kind and line), and on a graph whose store reads a load's buffer
// directly (every cell of AccLoad, AuxLoad/AuxStore and RowBroadcast is one: the node alone between a load
// and a store) upstream's store-of-a-load race, §4 there (graph::known_hazard): a race of the store's MTE3
// read with an MTE2 or FIX write, no other.
#pragma once
#include <string>
#include <vector>

#include "acl/catlass_checkout.hpp"
#include "evg/conformance/case.hpp"

namespace evg::upstream {

// The checkout the corpus was compiled against (its folder as configured, git commit, version).
acl::CatlassCheckout compiled_checkout();
// The compiler that built the cells' kernel code and its order of evaluation (acl/kernel_compiler.hpp).
std::string compiled_kernel_compiler();

// The cases, ids "Upstream/<Kind>/Ascend950/<dtype>/<path>/<shape>/CL96", suite "upstream", one per node kind
// a cell tests and shape it runs at. `root` must name the compiled checkout (evg::Error naming both when
// not); each case's replay line is `<binary> conformance --catlass-root <root> --filter '<id>' --out
// <out_root>/...`.
std::vector<conformance::CaseSpec> upstream_cases(const std::string& root, const std::string& binary,
                                                  const std::string& out_root);

}  // namespace evg::upstream
