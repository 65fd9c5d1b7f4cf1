// The generator of the upstream corpus (upstream/corpus/, label `upstream`): writes FILES C++ files of
// PER_FILE instances each, from a deterministic seed. An instance is a random case of the property suite's
// generator decoded for upstream Catlass (props::decode with Implementation::upstream: Ascend950, only the
// node kinds and functors upstream has), printed by emit_cpp in the upstream dialect with run-time shapes
// (the layouts read `m` and `n`), inside a function that binds the device pointers of a RunRequest and runs
// upstream's kernel (upstream_harness.hpp). Its case is embedded as regression text: the test rebuilds the
// problem at any other m, n, k from it (graph::with_shape), since only the graph, the types, the
// computeLength and the tile are compiled in.
//
//   evg_upstream_corpus_gen OUT_DIR FILES PER_FILE SEED TWIN_EVERY
//
// Besides instances_NNN.cpp it writes instances_named.cpp (graphs that show or settle a finding of
// docs/upstream-findings.md), instances_conformance.cpp (the node suite's cells upstream has) and
// instances_conformance_planted.cpp (two of those, for a checkout copy with a planted fault).
//
// TWIN_EVERY: every how many tree instances (TreeVisitor nests) also get their graph emitted as a
// TopologicalVisitor (Instance::run_topological), which must write the same bytes; 0: none.
//
// A file is rewritten only when its contents change, so rebuilding after an unrelated edit recompiles
// nothing. Exit 1 with a sentence when the generator cannot make the instances asked for.
#include <fmt/format.h>

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

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

// The named instances: graphs that show a finding of docs/upstream-findings.md on upstream's code (the test
// UpstreamCorpusFindings requires the finding there and not on evgcheck's copy). Two tiles of one buffer set
// per core: m = 33 rows of the 32-row tile, one core.
struct Named {
    const char* name;
    const char* problem;
};
constexpr Named kNamed[] = {
    // §4: a store of the C tile (GM hand-over) and of an input tensor; the C region on the UB path.
    {"store_of_accload_gm",
     "problem arch=Ascend950 m=33 n=65 k=1 a=half b=half c=float cl=2048 path=gm tile=32x64x64\n"
     "output D : float[33, 65]\n"
     "%0 = AccLoad float\n"
     "%1 = AuxStore float D (%0)\n"},
    {"store_of_auxload_gm",
     "problem arch=Ascend950 m=33 n=65 k=1 a=half b=half c=float cl=2048 path=gm tile=32x64x64\n"
     "input  X : float[33, 65]\n"
     "output Y : float[33, 65]\n"
     "output D : float[33, 65]\n"
     "%0 = AuxLoad float X\n"
     "%1 = AuxStore float Y (%0)\n"
     "%2 = AccLoad float\n"
     "%3 = Compute Add float (%1, %2)\n"
     "%4 = AuxStore float D (%3)\n"},
    {"store_of_accload_ub",
     "problem arch=Ascend950 m=33 n=65 k=1 a=half b=half c=float cl=2048 path=ub tile=32x64x64\n"
     "output D : float[33, 65]\n"
     "%0 = AccLoad float ub\n"
     "%1 = AuxStore float D (%0)\n"},
    // §5: the UB path's last, partial tile, where a Compute or a Cast works over the whole computeLength from
    // the tile's start in the C region. Upstream's add_ub example's tile and computeLength (256 x 256,
    // 7680 = 30 rows of 256); 128 rows per AIV make 4 tiles of 30 rows and one of 8.
    {"ub_last_tile_relu",
     "problem arch=Ascend950 m=256 n=256 k=32 a=half b=half c=float cl=7680 path=ub tile=256x256x128\n"
     "output D : float[256, 256]\n"
     "%0 = AccLoad float ub\n"
     "%1 = Compute Relu float (%0)\n"
     "%2 = AuxStore float D (%1)\n"},
    {"ub_last_tile_cast",
     "problem arch=Ascend950 m=256 n=256 k=32 a=half b=half c=float cl=7680 path=ub tile=256x256x128\n"
     "output D : half[256, 256]\n"
     "%0 = AccLoad float ub\n"
     "%1 = Cast half <- float CAST_RINT (%0)\n"
     "%2 = AuxStore half D (%1)\n"},
    {"ub_last_tile_add",
     "problem arch=Ascend950 m=256 n=256 k=32 a=half b=half c=float cl=7680 path=ub tile=256x256x128\n"
     "input  X : float[256, 256]\n"
     "output D : float[256, 256]\n"
     "%0 = AccLoad float ub\n"
     "%1 = AuxLoad float X\n"
     "%2 = Compute Add float (%0, %1)\n"
     "%3 = AuxStore float D (%2)\n"},
    // §5: RowBroadcast copies its row down the tile UB -> UB with no PipeBarrier<PIPE_V> before the Compute
    // that reads it; 32 rows of 64 a tile.
    {"row_broadcast_gm",
     "problem arch=Ascend950 m=64 n=64 k=32 a=half b=half c=float cl=2048 path=gm tile=32x64x64\n"
     "input  bias : float[1, 64]\n"
     "output D : float[64, 64]\n"
     "%0 = AccLoad float\n"
     "%1 = RowBroadcast float bias\n"
     "%2 = Compute Add float (%0, %1)\n"
     "%3 = AuxStore float D (%2)\n"},
    {"row_broadcast_ub",
     "problem arch=Ascend950 m=64 n=64 k=32 a=half b=half c=float cl=2048 path=ub tile=32x64x64\n"
     "input  bias : float[1, 64]\n"
     "output D : float[64, 64]\n"
     "%0 = AccLoad float ub\n"
     "%1 = RowBroadcast float bias\n"
     "%2 = Compute Add float (%0, %1)\n"
     "%3 = AuxStore float D (%2)\n"},
};

template <class T>
bool parse(std::string_view text, T& out) {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

int main(int argc, char** argv) {
    int files = 0, per_file = 0, twin_every = 0;
    uint64_t seed = 0;
    if (argc != 6 || !parse(argv[2], files) || !parse(argv[3], per_file) || !parse(argv[4], seed) ||
        !parse(argv[5], twin_every) || files < 1 || files > 999 || per_file < 1 || per_file > 1000 ||
        twin_every < 0) {
        std::cerr
            << "usage: evg_upstream_corpus_gen OUT_DIR FILES PER_FILE SEED TWIN_EVERY (FILES 1-999, "
               "PER_FILE 1-1000, SEED a whole number, TWIN_EVERY 0 for no TopologicalVisitor twins, else "
               "every how many tree instances get one)\n";
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    UpstreamDraws draws(seed);
    int index = 0, trees = 0;
    for (int f = 0; f < files; ++f) {
        std::string body = instances_file_header(
            fmt::format("evg_upstream_corpus_gen (upstream/corpus/corpus_gen.cpp), seed {}", seed));
        for (int k = 0; k < per_file; ++k) {
            const std::optional<Draw> d = draws.next(static_cast<uint64_t>(files) * per_file * 20);
            if (!d) {
                std::cerr << "evg_upstream_corpus_gen: more than 19 of 20 generated cases were refused\n";
                return 1;
            }
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
    for (const Named& named : kNamed) {
        props::Case c;
        c.problem = graph::parse_problem(named.problem);
        c.cores = 1;
        body += instance_functions(index++, c, false, named.name);
    }
    body += "}  // namespace\n";
    write_if_changed(dir / "instances_named.cpp", body);

    // The node suite's cells upstream has (conformance/upstream_cells.hpp), for `evgcheck conformance
    // --catlass-root`.
    body = header;
    // Two of them again, for the checkout copy with a planted fault (upstream/CMakeLists.txt): a Compute cell
    // the fault breaks and one it does not touch.
    std::string planted = body;
    int cells = 0;
    for (const conformance::UpstreamCell& cell : conformance::upstream_cells()) {
        props::Case c;
        c.problem = cell.problem;
        c.data = cell.data;
        c.data_seed = cell.data_seed;
        c.cores = 2;
        const std::string fn = instance_functions(index++, c, false, "conformance/" + cell.name);
        if (fn.empty()) {
            std::cerr << "evg_upstream_corpus_gen: the conformance cell " << cell.name
                      << " does not read back from its text\n";
            return 1;
        }
        body += fn;
        if (cell.name == "Compute/float/gm" || cell.name == "AuxLoad/float/gm") planted += fn;
        ++cells;
    }
    body += "}  // namespace\n";
    write_if_changed(dir / "instances_conformance.cpp", body);
    write_if_changed(dir / "instances_conformance_planted.cpp", planted + "}  // namespace\n");
    std::cout << fmt::format(
        "evg_upstream_corpus_gen: {} random instances ({} drawn graphs skipped for upstream's "
        "known store-of-a-load race), {} named, {} conformance cells\n",
        files * per_file, draws.skipped_for_known_race(), std::size(kNamed), cells);
    return 0;
}
