#include "upstream_conformance.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <variant>
#include <vector>

#include "corpus_check.hpp"
#include "corpus_emit.hpp"
#include "corpus_load.hpp"
#include "coverage.hpp"
#include "evg/conformance/model_case.hpp"
#include "evg/conformance/upstream_cells.hpp"
#include "evg/graph/implementation.hpp"
#include "evg/graph/kernel_config.hpp"
#include "evg/hw/error.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/props/regression.hpp"
#include "evg/verify/known_findings.hpp"
#include "library_cache.hpp"

namespace evg::upstream {
namespace {

namespace fs = std::filesystem;
using conformance::CaseResult;
using conformance::CaseSpec;
using conformance::UpstreamCell;
using conformance::UpstreamShape;

fs::path canonical_or_absolute(const std::string& p) {
    std::error_code ec;
    fs::path c = fs::weakly_canonical(fs::absolute(p), ec);
    return ec ? fs::absolute(p) : c;
}

// One copy per thread: a match counts its hits, and cases run on several threads (--jobs).
verify::KnownFindings& known_findings() {
    thread_local verify::KnownFindings known = verify::KnownFindings::read(EVG_UPSTREAM_KNOWN_FINDINGS);
    return known;
}

constexpr std::size_t kCellsPerFile = 6;

// The cells compiled at run time for one suite: their cases (the library's instance i is cases[i]), built
// once when the first case that needs them runs.
struct RuntimeCells {
    std::string root;
    fs::path work_dir;
    std::vector<props::Case> cases;
    std::vector<std::string> names;  // "conformance/<cell>/<family>", as the library names instance i
    std::once_flag built;
    std::string error;  // why the library cannot be had ("" when it was built and loaded)
    corpus::CorpusLibrary library;
    double seconds = 0;
    bool cached = false;

    void build() {
        const auto start = std::chrono::steady_clock::now();
        std::error_code ec;
        fs::create_directories(work_dir, ec);
        check::LibraryCache cache(work_dir, root, 3600, std::chrono::steady_clock::time_point::max(),
                                  /*optimize=*/0);
        // A few cells a file: the build compiles the files side by side.
        std::vector<std::string> sources;
        for (std::size_t first = 0; first < cases.size(); first += kCellsPerFile) {
            const std::size_t end = std::min(cases.size(), first + kCellsPerFile);
            sources.push_back(corpus::library_source({cases.begin() + static_cast<std::ptrdiff_t>(first),
                                                      cases.begin() + static_cast<std::ptrdiff_t>(end)},
                                                     "evgcheck conformance --catlass-root", {},
                                                     {names.begin() + static_cast<std::ptrdiff_t>(first),
                                                      names.begin() + static_cast<std::ptrdiff_t>(end)},
                                                     static_cast<int>(first)));
        }
        const check::LibraryCache::Result lib = cache.build(sources);
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        cached = lib.cached;
        if (!lib.library) {
            error = fmt::format("the checkout {} does not compile the cells ({} of them, in {}):\n{}", root,
                                cases.size(), work_dir.string(), lib.error);
            return;
        }
        std::variant<corpus::CorpusLibrary, corpus::CorpusLoadError> loaded =
            corpus::load_corpus_library(lib.library->string());
        if (const auto* e = std::get_if<corpus::CorpusLoadError>(&loaded)) {
            error = "the cells' library cannot be loaded: " + e->why;
            return;
        }
        library = std::get<corpus::CorpusLibrary>(loaded);
    }
    // Instance `index`, or the reason there is none.
    const corpus::Instance* instance(size_t index, std::string& why) {
        std::call_once(built, [this] { build(); });
        why = error;
        if (!error.empty()) return nullptr;
        for (const corpus::Instance& i : library.instances)
            if (i.index == static_cast<int>(index)) return &i;
        why = fmt::format("the cells' library has no instance {}", index);
        return nullptr;
    }
};

CaseResult run_case(const CaseSpec& spec, const corpus::Instance* instance, const std::string& missing,
                    const UpstreamShape& shape) {
    if (!instance) {
        CaseResult r = conformance::start_result(spec);
        r.message = missing;
        return r;
    }
    props::Case c = props::case_from_text(instance->text);
    c.problem = graph::with_shape(c.problem, shape.m, shape.n, shape.k);
    c.cores = 2;
    c.sched_seed = 0;
    const verify::CaseData data = verify::make_case_data(c.problem, c.data, c.data_seed, c.sign);
    corpus::InstanceRun run = instance->run(corpus::make_request(c, data));
    // Upstream's documented findings (known_findings.txt) taken out: among them the store-of-a-load race
    // (docs/upstream-findings.md §4) of a graph whose store reads a load, by its entries' two places and only
    // in such a graph (corpus::run_conditions).
    std::vector<const verify::KnownFinding*> excused;
    graph::ModelRun model = corpus::model_run(run, c.problem, &known_findings(), &excused);
    verify::JudgeOptions options;
    options.exact_data = data.exact_data;
    options.ub_rule = false;  // the UB layout is upstream's own, not evgcheck's UbAccounting
    conformance::Measurement m =
        conformance::measure_run(spec, c.problem, model, oracle::evaluate(c.problem, data.inputs), options);
    CaseResult r = conformance::judge_conforming(std::move(m));
    std::string note;
    // Counted by entry; the store-of-a-load entries (tag stores-a-load) by the race's name, which the
    // report's side-by-side table counts as "§4 N" (reports/src/side_by_side.cpp).
    std::map<std::string, int> by_entry;
    for (const verify::KnownFinding* k : excused) {
        const std::string section =
            k->note.empty() ? std::string() : fmt::format(" (docs/upstream-findings.md §{})", k->note);
        ++by_entry[k->stores_a_load ? "upstream's store-of-a-load race" + section : k->spelling + section];
    }
    for (const auto& [entry, count] : by_entry)
        note += fmt::format("{}{} finding(s) set aside by known_findings.txt: {}", note.empty() ? "" : "\n",
                            count, entry);
    if (!note.empty()) r.message = r.message.empty() ? note : r.message + "\n" + note;
    return r;
}

}  // namespace

acl::CatlassCheckout compiled_checkout() {
    return acl::identify_catlass_checkout(EVG_UPSTREAM_CATLASS_ROOT);
}

std::vector<std::string> upstream_family_ids() {
    std::vector<std::string> out;
    for (const corpus::MmadFamily& f : corpus::reachable_mmad_families()) out.push_back(f.id);
    return out;
}

UpstreamSuite upstream_suite(const UpstreamSuiteOptions& o) {
    const fs::path asked = canonical_or_absolute(o.root);
    std::error_code ec;
    if (!fs::is_directory(asked / "include" / "catlass", ec))
        throw Error(fmt::format(
            "option --catlass-root: {} is not a Catlass checkout (it has no include/catlass)", o.root));
    const std::vector<corpus::MmadFamily> all = corpus::reachable_mmad_families();
    std::vector<corpus::MmadFamily> families;
    for (const std::string& id : o.families) {
        const auto it = std::find_if(all.begin(), all.end(), [&](const auto& f) { return f.id == id; });
        if (it == all.end())
            throw Error(
                fmt::format("option --families: '{}' is not a configuration family (the families: "
                            "{}, or all)",
                            id, fmt::join(upstream_family_ids(), ", ")));
        families.push_back(*it);
    }
    if (families.empty()) families = all;

    // The compiled-in cells serve the configured checkout's default family; everything else is compiled.
    const acl::CatlassCheckout compiled = compiled_checkout();
    const bool configured = asked == fs::path(compiled.root);
    const std::string options = "--catlass-root " + conformance::shell_quote(asked.string());
    auto cells = std::make_shared<const std::vector<UpstreamCell>>(conformance::upstream_cells());
    auto runtime = std::make_shared<RuntimeCells>();
    runtime->root = asked.string();
    runtime->work_dir = o.work_dir.empty() ? check::default_work_dir() : fs::absolute(o.work_dir);
    auto compiled_ran = std::make_shared<std::atomic<bool>>(false);
    UpstreamSuite out;
    for (size_t i = 0; i < cells->size(); ++i) {
        const UpstreamCell& cell = (*cells)[i];
        for (const corpus::MmadFamily& family : families) {
            const bool built_in_family = family.config == graph::KernelConfig{};
            const bool built_in = configured && built_in_family;
            graph::Problem p = cell.problem;
            p.kernel = family.config;
            // A family the cell's problem cannot take (a rule of graph::kernel_rules) has no cases.
            // (The default configuration is the corpus's own, never refused: its int8 cells run with the unit
            // flag on as they always have; graph::validate judges only a stated configuration likewise.)
            if (const auto refusal = graph::kernel_config_refusal(p); refusal && !built_in_family) {
                out.left_out.push_back(fmt::format("{} under {}: {}", cell.name, family.id, *refusal));
                continue;
            }
            std::optional<size_t> index;  // the run-time library's instance, made when a case needs it
            for (const std::string& kind : cell.node_kinds)
                for (size_t s = 0; s < cell.shapes.size(); ++s) {
                    const UpstreamShape& shape = cell.shapes[s];
                    const std::string path = cell.problem.path == graph::WorkspacePath::UB ? "ub" : "gm";
                    CaseSpec spec;
                    spec.id = fmt::format("Upstream/{}/Ascend950/{}/{}/{}/{}/CL{}", kind, cell.dtype, path,
                                          family.id, shape.name, cell.problem.compute_length);
                    if (!o.filter.empty() && !conformance::glob_match(o.filter, spec.id)) continue;
                    spec.suite = "upstream";
                    spec.node_kind = kind;
                    spec.dtype = cell.dtype;
                    spec.arch = "Ascend950";
                    spec.path = path;
                    spec.family = family.id;
                    const std::string replay =
                        conformance::replay_command(spec.id, o.binary, o.out_root, options);
                    if (built_in) {
                        spec.run = [spec_copy = spec, cells, i, s, replay, compiled_ran] {
                            const std::string name = "conformance/" + (*cells)[i].name;
                            const corpus::Instance* instance = corpus::named_instance(name);
                            *compiled_ran = true;
                            CaseResult r = run_case(
                                spec_copy, instance,
                                fmt::format("the compiled upstream corpus has no instance {}: rebuild "
                                            "evgcheck (the cell list changed)",
                                            name),
                                (*cells)[i].shapes[s]);
                            r.replay = replay;
                            return r;
                        };
                    } else {
                        if (!index) {
                            index = runtime->cases.size();
                            runtime->cases.push_back(corpus::conformance_cell_case(
                                cell.problem, cell.data, cell.data_seed, family.config));
                            runtime->names.push_back(fmt::format("conformance/{}/{}", cell.name, family.id));
                        }
                        spec.run = [spec_copy = spec, cells, i, s, replay, runtime, at = *index] {
                            std::string why;
                            const corpus::Instance* instance = runtime->instance(at, why);
                            CaseResult r = run_case(spec_copy, instance, why, (*cells)[i].shapes[s]);
                            r.replay = replay;
                            return r;
                        };
                    }
                    out.cases.push_back(std::move(spec));
                }
        }
    }
    if (!runtime->cases.empty())
        if (const std::string why = check::compile_setup_error(); !why.empty())
            throw Error(
                fmt::format("option --catlass-root: {} cells of {} are to be compiled at run time, and {}",
                            runtime->cases.size(), asked.string(), why));
    out.kernel_compilers = [runtime, compiled_ran] {
        std::vector<std::string> parts;
        if (*compiled_ran)
            parts.push_back(fmt::format("{} (the cells compiled into evgcheck)",
                                        corpus::upstream_corpus_kernel_compiler().description));
        if (runtime->error.empty() && !runtime->library.instances.empty())
            parts.push_back(
                fmt::format("{} (the {} cells compiled at run time{}, in {})",
                            runtime->library.compiler.description, runtime->cases.size(),
                            runtime->cached ? ", cached" : fmt::format(" in {:.0f} s", runtime->seconds),
                            runtime->work_dir.string()));
        else if (!runtime->error.empty())
            parts.push_back("none for the run-time cells (they did not compile)");
        return parts.empty() ? std::string("none (no upstream case ran)")
                             : fmt::format("{}", fmt::join(parts, "; "));
    };
    return out;
}

}  // namespace evg::upstream
