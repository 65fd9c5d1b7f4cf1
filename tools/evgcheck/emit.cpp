// evgcheck emit GRAPH: the graph as C++ against the Catlass EVG API (lib/graph's emit_cpp).
#include <array>
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "evg/graph/emit_cpp.hpp"
#include "evg/graph/validate.hpp"
#include "load.hpp"
#include "problem_options.hpp"

namespace evgcheck {

namespace g = evg::graph;

namespace {

constexpr std::array kEmitOptions = {
    kArchOption,
    kMOption,
    kNOption,
    kKOption,
    kClOption,
    kPathOption,
    OptionSpec{
        "dialect", "evgcheck|upstream",
        "whose Catlass the C++ is for (default evgcheck); upstream refuses a node, functor or arch upstream "
        "Catlass lacks, naming it"},
    OptionSpec{"help", "", "print this help"},
};

constexpr const char* kEmitUsage =
    "Usage: evgcheck emit GRAPH [options]\n"
    "\n"
    "Prints GRAPH as C++ for a Catlass host program: one TLA layout per tensor, `using EVG = ...;` (a\n"
    "TreeVisitor nest for a tree, a TopologicalVisitor otherwise) and `typename EVG::Arguments args{...};`.\n"
    "The device pointers are named ptr<Tensor>. A file with a `problem` line (or any option below) is\n"
    "validated as a whole problem and the C++ starts with a comment naming it; a bare graph is validated\n"
    "as a graph. GRAPH is a file in the graph text format (docs/graph-format.md), or - for standard input.\n"
    "With --dialect upstream the C++ is for upstream Catlass (a checkout, v1.6.0 on): its EVG has the nodes\n"
    "AccLoad, AuxLoad, AuxStore, Cast, Compute and RowBroadcast, on Ascend950; anything else is refused.\n"
    "Exit code: 0 printed, 2 bad input (also a graph the dialect cannot express).\n"
    "\n";

}  // namespace

int emit_command(std::span<const char* const> argv) {
    const Args args = Args::parse(argv, kEmitOptions, "emit", 1);
    if (args.has("help")) {
        std::cout << kEmitUsage << options_help(kEmitOptions);
        return kExitOk;
    }
    if (args.positional().empty()) {
        throw UsageError("evgcheck emit: expected a GRAPH file (see evgcheck emit --help)");
    }
    constexpr std::array<std::string_view, 2> kDialects = {"evgcheck", "upstream"};
    g::EmitOptions options;
    if (auto d = args.choice("dialect", kDialects)) options.dialect = *g::implementation_from_name(*d);
    const Overrides overrides = read_overrides(args, "emit");
    const SourceFile src = read_source(args.positional()[0]);
    options.source = src.path;
    if (!src.has_problem && !overrides.any()) {
        const g::Graph graph = parse_graph_file(src);
        validate_or_throw(src, g::validate(graph));
        std::cout << g::emit_cpp(graph, options).text();
        return kExitOk;
    }
    const g::Problem problem = make_problem(src, overrides);
    validate_or_throw(src, g::validate(problem));
    std::cout << g::emit_cpp(problem, options).text();
    return kExitOk;
}

}  // namespace evgcheck
