// The generator of the upstream corpus (upstream/corpus/, label `upstream`): writes FILES C++ files of
// PER_FILE instances each, from a deterministic seed. An instance is a random case of the property suite's
// generator decoded for upstream Catlass (props::decode with Implementation::upstream: Ascend950, only the
// node kinds and functors upstream has), printed by emit_cpp in the upstream dialect with run-time shapes
// (the layouts read `m` and `n`), inside a function that binds the device pointers of a RunRequest and runs
// upstream's kernel (upstream_harness.hpp). Its case is embedded as regression text: the test rebuilds the
// problem at any other m, n, k from it (graph::with_shape), since only the graph, the types, the
// computeLength and the tile are compiled in.
//
//   evg_upstream_corpus_gen OUT_DIR FILES PER_FILE SEED TWIN_EVERY CONFORMANCE_FILES
//
// Besides instances_NNN.cpp it writes instances_named.cpp (graphs that show or settle a finding of
// docs/upstream-findings.md), instances_conformance_K.cpp for K < CONFORMANCE_FILES (the node suite's cells
// upstream has) and instances_conformance_planted.cpp (two of those, for a checkout copy with a planted
// fault). The cells go into several files because a few are wide graphs (every functor of a dtype beside one
// another, up to 59 nodes) whose compile time grows about with the square of their nodes: in one file they
// were the last unit of the build, compiling alone for minutes. The files are balanced by that estimate.
//
// TWIN_EVERY: every how many tree instances (TreeVisitor nests) also get their graph emitted as a
// TopologicalVisitor (Instance::run_topological), which must write the same bytes; 0: none.
//
// A file is rewritten only when its contents change, so rebuilding after an unrelated edit recompiles
// nothing. Exit 1 with a sentence when the generator cannot make the instances asked for.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "corpus_emit.hpp"
#include "evg/conformance/upstream_cells.hpp"
#include "evg/graph/emit_cpp.hpp"
#include "evg/graph/implementation.hpp"
#include "evg/graph/text.hpp"

namespace {

using namespace evg;
using namespace evg::upstream::corpus;

void write_if_changed(const std::filesystem::path& path, const std::string& contents) {
    {
        std::ifstream in(path, std::ios::binary);
        if (in) {
            std::stringstream old;
            old << in.rdbuf();
            if (old.str() == contents) return;
        }
    }
    std::ofstream out(path, std::ios::binary);
    out << contents;
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

template <class T>
bool parse(std::string_view text, T& out) {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

int main(int argc, char** argv) {
    int files = 0, per_file = 0, twin_every = 0, conformance_files = 0;
    uint64_t seed = 0;
    if (argc != 7 || !parse(argv[2], files) || !parse(argv[3], per_file) || !parse(argv[4], seed) ||
        !parse(argv[5], twin_every) || !parse(argv[6], conformance_files) || files < 1 || files > 999 ||
        per_file < 1 || per_file > 1000 || twin_every < 0 || conformance_files < 1 ||
        conformance_files > 99) {
        std::cerr
            << "usage: evg_upstream_corpus_gen OUT_DIR FILES PER_FILE SEED TWIN_EVERY CONFORMANCE_FILES "
               "(FILES "
               "1-999, PER_FILE 1-1000, SEED a whole number, TWIN_EVERY 0 for no TopologicalVisitor twins, "
               "else every how many tree instances get one, CONFORMANCE_FILES 1-99)\n";
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    // The random instances and the cover graphs of a run of FILES x PER_FILE graphs (plan_instances).
    const std::vector<Draw> plan = plan_instances(seed, files * per_file);
    if (static_cast<int>(plan.size()) < files * per_file) {
        std::cerr << "evg_upstream_corpus_gen: more than 19 of 20 generated cases were refused\n";
        return 1;
    }
    int index = 0, trees = 0, covers = 0;
    for (int f = 0; f < files; ++f) {
        std::string body = instances_file_header(
            fmt::format("evg_upstream_corpus_gen (upstream/corpus/corpus_gen.cpp), seed {}", seed));
        for (int k = 0; k < per_file; ++k) {
            const Draw* d = &plan[static_cast<std::size_t>(index)];
            covers += d->cover;
            const graph::Graph& g = d->c.problem.graph;
            const bool tree = graph::runs_as_tree(g) && g.nodes.size() > 1;
            const bool twin = tree && twin_every > 0 && trees++ % twin_every == 0;
            body += instance_functions(index, d->c, twin);
            ++index;
        }
        body += "}  // namespace\n";
        write_if_changed(dir / fmt::format("instances_{:03}.cpp", f), body);
    }
    const std::string header =
        instances_file_header("evg_upstream_corpus_gen (upstream/corpus/corpus_gen.cpp)");
    std::string body = header;
    for (const NamedGraph& named : named_graphs()) {
        props::Case c;
        c.problem = graph::parse_problem(named.problem);
        c.cores = 1;
        body += instance_functions(index++, c, false, named.name);
    }
    body += "}  // namespace\n";
    write_if_changed(dir / "instances_named.cpp", body);

    // The node suite's cells upstream has (conformance/upstream_cells.hpp), for `evgcheck conformance
    // --catlass-root`.
    // Two of them again, for the checkout copy with a planted fault (upstream/CMakeLists.txt): a Compute cell
    // the fault breaks and one it does not touch.
    std::string planted = header;
    struct Cell {
        std::string fn;
        double cost = 0;  // compile time, estimated: a fixed part and the square of the nodes
        int file = 0;
    };
    std::vector<Cell> cells;
    for (const conformance::UpstreamCell& cell : conformance::upstream_cells()) {
        const props::Case c = conformance_cell_case(cell.problem, cell.data, cell.data_seed);
        const std::string fn = instance_functions(index++, c, false, "conformance/" + cell.name);
        if (fn.empty()) {
            std::cerr << "evg_upstream_corpus_gen: the conformance cell " << cell.name
                      << " does not read back from its text\n";
            return 1;
        }
        if (cell.name == "Compute/float/gm" || cell.name == "AuxLoad/float/gm") planted += fn;
        const double nodes = static_cast<double>(c.problem.graph.nodes.size());
        cells.push_back({fn, 100 + nodes * nodes});
    }
    // The costliest cell first, each into the file with the least so far; a file keeps the cells' order.
    std::vector<std::size_t> order(cells.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return cells[a].cost > cells[b].cost; });
    std::vector<double> load(static_cast<std::size_t>(conformance_files), 0.0);
    for (const std::size_t i : order) {
        const auto least = std::min_element(load.begin(), load.end());
        cells[i].file = static_cast<int>(least - load.begin());
        *least += cells[i].cost;
    }
    for (int f = 0; f < conformance_files; ++f) {
        body = header;
        for (const Cell& cell : cells)
            if (cell.file == f) body += cell.fn;
        body += "}  // namespace\n";
        write_if_changed(dir / fmt::format("instances_conformance_{}.cpp", f), body);
    }
    write_if_changed(dir / "instances_conformance_planted.cpp", planted + "}  // namespace\n");
    std::cout << fmt::format(
        "evg_upstream_corpus_gen: {} instances ({} random, {} cover graphs), {} named, {} conformance "
        "cells\n",
        files * per_file, files * per_file - covers, covers, named_graphs().size(), cells.size());
    return 0;
}
