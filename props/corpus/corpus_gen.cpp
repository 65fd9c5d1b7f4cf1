// The corpus generator of property 5 (props/README.md): writes FILES C++ files of PER_FILE random cases each,
// from a deterministic seed, every case as emit_cpp prints it (layouts, `using EVG = ...;`, Arguments) inside
// a function that binds emit_cpp's ptr<Name> pointers to the run's buffers and runs it through
// evg_corpus::run_static (corpus_harness.hpp). The case itself is embedded as regression text, so that the
// test runs exactly the same problem and data through run_on_model.
//
//   evg_props_corpus_gen OUT_DIR FILES PER_FILE SEED
//
// A file is rewritten only when its contents change, so rebuilding after an unrelated edit recompiles
// nothing.
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

#include "evg/graph/emit_cpp.hpp"
#include "evg/props/generators.hpp"
#include "evg/props/regression.hpp"

namespace {

using namespace evg;

std::string arch_tag(graph::ArchId a) {
    return a == graph::ArchId::Ascend950 ? "Catlass::Arch::Ascend950" : "Catlass::Arch::AtlasA2";
}

std::string indent(const std::string& code, const std::string& pad) {
    std::istringstream in(code);
    std::string line, out;
    while (std::getline(in, line)) out += (line.empty() ? "" : pad) + line + "\n";
    return out;
}

// The function of one case (computeLength capped for tla::Int, see below), or "" when the case cannot be a
// corpus entry (its text does not read back to the same case, or two tensors share a C++ pointer name).
std::string case_function(int index, props::Case generated) {
    // A graph without UB buffers fits any computeLength, and the generator then takes the largest multiple
    // of 32 below 2^32; the static kernel's tla::Int<CL> holds an int, so such cases use the largest
    // multiple of 32 an int holds (same tiling: one piece per tile either way).
    if (generated.problem.compute_length > 2147483616u) generated.problem.compute_length = 2147483616u;
    const std::string text = props::to_text(generated, "Props/Corpus");
    const props::Case c = props::case_from_text(text);
    if (!(c == generated)) return {};
    const graph::Problem& p = c.problem;
    std::set<std::string> names;
    std::string bind;
    for (std::size_t i = 0; i < p.graph.tensors.size(); ++i) {
        const std::string ptr = graph::cpp_pointer_name(p.graph.tensors[i].name);
        if (!names.insert(ptr).second) return {};
        bind +=
            fmt::format("            GM_ADDR {} = corpus_ptrs[{}];\n            (void){};\n", ptr, i, ptr);
    }
    const graph::CppEmission e = graph::emit_cpp(p);
    std::string layouts_used;
    for (const graph::Tensor& t : p.graph.tensors)
        layouts_used += fmt::format("    (void){};\n", graph::cpp_layout_name(t.name));
    return fmt::format(
        "// case {}: {}\n"
        "evg_corpus::StaticRun case_{}(const evg::props::Case& c) {{\n"
        "{}{}{}"
        "    return evg_corpus::run_static<{}, {}, {}, {}, {}u, {}u, {}u, {}u, EVG>(\n"
        "        c, [&](const std::vector<GM_ADDR>& corpus_ptrs) {{\n"
        "{}{}"
        "            return args;\n"
        "        }});\n"
        "}}\n"
        "const evg_corpus::Register register_{}({}, R\"EVG({})EVG\", case_{});\n\n",
        index, props::summary(c), index, indent(e.layouts, "    "), indent(e.evg, "    "), layouts_used,
        arch_tag(p.arch), p.path == graph::WorkspacePath::UB ? "true" : "false", graph::cpp_element_name(p.a),
        graph::cpp_element_name(p.c), p.tile.m, p.tile.n, p.tile.k, p.compute_length, bind,
        indent(e.arguments, "            "), index, index, text, index);
}

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

}  // namespace

int main(int argc, char** argv) {
    if (argc != 5) {
        std::cerr << "usage: evg_props_corpus_gen OUT_DIR FILES PER_FILE SEED\n";
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    const int files = std::atoi(argv[2]);
    const int per_file = std::atoi(argv[3]);
    const uint64_t seed = std::strtoull(argv[4], nullptr, 10);
    std::filesystem::create_directories(dir);
    // Half the cases test the static visitors' traversal (props::traversal_genes: trees and DAGs whose
    // multi-input nodes are non-commutative and take distinct subtrees); the other half is the property
    // suite's own mix.
    props::GenConfig cfg;
    cfg.traversal_share = 50;
    const rc::Gen<props::Case> gen = props::case_gen(cfg);
    int index = 0;
    uint64_t draw = 0;
    for (int f = 0; f < files; ++f) {
        std::string body = fmt::format(
            "// Generated by evg_props_corpus_gen (props/corpus/corpus_gen.cpp), seed {}: do not edit.\n"
            "#include \"corpus_harness.hpp\"\n\n"
            "namespace {{\n\n",
            seed);
        for (int k = 0; k < per_file;) {
            // Sizes sweep 0..99 like a rapidcheck run, so that small and large graphs both appear.
            const props::Case c =
                gen(rc::Random(seed * 1000003u + draw), static_cast<int>(draw % 100)).value();
            ++draw;
            if (draw > static_cast<uint64_t>(files) * per_file * 20) {
                std::cerr << "evg_props_corpus_gen: too many cases rejected\n";
                return 1;
            }
            std::string fn = case_function(index, c);
            if (fn.empty()) continue;
            body += fn;
            ++index;
            ++k;
        }
        body += "}  // namespace\n";
        write_if_changed(dir / fmt::format("corpus_{:02}.cpp", f), body);
    }
    return 0;
}
