// The node suite on upstream Catlass's own implementation (`evgcheck conformance --catlass-root DIR`): each
// cell of conformance/upstream_cells.hpp, under each block-mmad configuration family the model runs
// (corpus::reachable_mmad_families: "uf", "uf+res", "l0c1", ...), runs at the node suite's shapes of its path
// through upstream's kernel, judged by the one judge against the oracle (lib/verify; the UB rule off: the UB
// layout is upstream's).
//
// Where the cells come from:
// - the checkout this build was configured with (EVG_CATLASS_ROOT), default family: the cells compiled into
//   evgcheck (the corpus's library evg_upstream_conformance_950), no compiler needed;
// - any other checkout, or another family: compiled at run time as `evgcheck check --catlass-root` compiles
// its
//   graphs (the same engine and cache: check::LibraryCache in the work folder), one library of the cells the
//   cases ask for, built once when the first of them runs and loaded into this process
//   (corpus::load_corpus_library). A checkout that does not compile fails those cases with the compiler's
//   words.
//
// The findings known_findings.txt lists (docs/upstream-findings.md) do not fail a case, and its message
// counts them by entry. Among them, on a graph whose store reads a load's buffer directly (every cell of
// AccLoad, AuxLoad/AuxStore and RowBroadcast is one: the node alone between a load and a store), upstream's
// store-of-a-load race, §4 there: its entries name the store's UB -> GM copy and the load's GM -> UB copy (or
// the cube's Fixpipe into UB) and hold only in such a graph (corpus::run_conditions); any other race still
// fails.
#pragma once
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "acl/catlass_checkout.hpp"
#include "evg/conformance/case.hpp"

namespace evg::upstream {

// The checkout the corpus was compiled against (its folder as configured, git commit, version).
acl::CatlassCheckout compiled_checkout();

struct UpstreamSuiteOptions {
    std::string root;      // the checkout (holds include/catlass)
    std::string binary;    // this evgcheck, for the replay lines
    std::string out_root;  // the replays' report folders go under it
    std::string filter;    // the cases' glob (conformance::glob_match); "" all: only their cells are compiled
    // The families' ids (corpus::MmadFamily::id); empty: every family the model runs.
    std::vector<std::string> families;
    std::filesystem::path work_dir;  // the run-time libraries (default: check::default_work_dir())
};

struct UpstreamSuite {
    // Ids "Upstream/<Kind>/Ascend950/<dtype>/<path>/<family>/<shape>/CL96", suite "upstream", one per node
    // kind a cell tests, family and shape, those matching the filter; each case's replay line is
    // `<binary> conformance --catlass-root <root> --filter '<id>' --out <out_root>/...`.
    std::vector<conformance::CaseSpec> cases;
    // The compilers that built the kernel code of the cases that ran (acl/kernel_compiler.hpp): the
    // compiled-in cells' and the run-time library's. Asked after the run.
    std::function<std::string()> kernel_compilers;
    // The cells a family cannot take, as "<cell> under <family>: <the rule it breaks>" (graph::kernel_rules):
    // they have no cases, and the command says so.
    std::vector<std::string> left_out;
};

// The suite for `o`. evg::Error naming the option: a folder that is no checkout, a family that is not one
// (the ids listed), run-time cells when this evgcheck cannot compile (no build folder package).
UpstreamSuite upstream_suite(const UpstreamSuiteOptions& o);

// The families' ids, in order (the first is the default configuration).
std::vector<std::string> upstream_family_ids();

}  // namespace evg::upstream
