#include "upstream_conformance.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <system_error>

#include "corpus_check.hpp"
#include "evg/conformance/model_case.hpp"
#include "evg/conformance/upstream_cells.hpp"
#include "evg/graph/implementation.hpp"
#include "evg/hw/error.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/props/regression.hpp"
#include "evg/verify/known_findings.hpp"

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

verify::KnownFindings& known_findings() {
    static verify::KnownFindings known = verify::KnownFindings::read(EVG_UPSTREAM_KNOWN_FINDINGS);
    return known;
}

CaseResult run_case(const CaseSpec& spec, const UpstreamCell& cell, const UpstreamShape& shape) {
    const std::string instance_name = "conformance/" + cell.name;
    const corpus::Instance* instance = corpus::named_instance(instance_name);
    if (!instance) {
        CaseResult r = conformance::start_result(spec);
        r.message = fmt::format(
            "the compiled upstream corpus has no instance {}: rebuild evgcheck (the cell list changed)",
            instance_name);
        return r;
    }
    props::Case c = props::case_from_text(instance->text);
    c.problem = graph::with_shape(c.problem, shape.m, shape.n, shape.k);
    c.cores = 2;
    c.sched_seed = 0;
    const verify::CaseData data = verify::make_case_data(c.problem, c.data, c.data_seed, c.sign);
    corpus::InstanceRun run = instance->run(corpus::make_request(c, data));
    graph::ModelRun model = corpus::model_run(run, c.problem, &known_findings());
    const size_t known = run.report.violations.size() - model.report.violations.size();
    // Upstream's store-of-a-load race on a graph whose store reads a load (docs/upstream-findings.md §4).
    size_t store_load = 0;
    const auto hazard = graph::known_hazard(graph::Implementation::upstream, c.problem.graph);
    // Only its two shapes: the store's MTE3 read against the next load's MTE2 write (GM path) or against the
    // cube's next FIX write of the C region (UB path); any other race still fails the case.
    if (hazard)
        store_load = std::erase_if(model.report.violations, [](const hw::Violation& v) {
            return v.kind == hw::ViolationKind::race && v.message.find("MTE3 read") != std::string::npos &&
                   (v.message.find("MTE2 write") != std::string::npos ||
                    v.message.find("FIX write") != std::string::npos);
        });
    verify::JudgeOptions options;
    options.exact_data = data.exact_data;
    options.ub_rule = false;  // the UB layout is upstream's own, not evgcheck's UbAccounting
    conformance::Measurement m =
        conformance::measure_run(spec, c.problem, model, oracle::evaluate(c.problem, data.inputs), options);
    CaseResult r = conformance::judge_conforming(std::move(m));
    std::string note;
    if (known > 0)
        note +=
            fmt::format("{} finding(s) of known_findings.txt set aside (docs/upstream-findings.md)", known);
    if (store_load > 0)
        note += fmt::format(
            "{}{} race(s) set aside: upstream's store-of-a-load race, docs/upstream-findings.md §4",
            note.empty() ? "" : "; ", store_load);
    if (!note.empty()) r.message = r.message.empty() ? note : r.message + "\n" + note;
    return r;
}

}  // namespace

acl::CatlassCheckout compiled_checkout() {
    return acl::identify_catlass_checkout(EVG_UPSTREAM_CATLASS_ROOT);
}

std::string compiled_kernel_compiler() {
    return upstream::corpus::upstream_corpus_kernel_compiler().description;
}

std::vector<CaseSpec> upstream_cases(const std::string& root, const std::string& binary,
                                     const std::string& out_root) {
    const acl::CatlassCheckout compiled = compiled_checkout();
    const fs::path asked = canonical_or_absolute(root);
    std::error_code ec;
    if (!fs::is_directory(asked / "include" / "catlass", ec))
        throw Error(fmt::format(
            "option --catlass-root: {} is not a Catlass checkout (it has no include/catlass)", root));
    if (asked != fs::path(compiled.root))
        throw Error(fmt::format(
            "option --catlass-root: this evgcheck runs upstream's nodes from a corpus compiled against {}, "
            "not {} "
            "(no compiler runs here): configure a build with -DEVG_CATLASS_ROOT={} and run its evgcheck",
            compiled.root, asked.string(), asked.string()));
    const std::string options = "--catlass-root " + conformance::shell_quote(compiled.root);
    std::vector<CaseSpec> out;
    auto cells = std::make_shared<const std::vector<UpstreamCell>>(conformance::upstream_cells());
    for (size_t i = 0; i < cells->size(); ++i) {
        const UpstreamCell& cell = (*cells)[i];
        for (const std::string& kind : cell.node_kinds)
            for (size_t s = 0; s < cell.shapes.size(); ++s) {
                const UpstreamShape& shape = cell.shapes[s];
                const std::string path = cell.problem.path == graph::WorkspacePath::UB ? "ub" : "gm";
                CaseSpec spec;
                spec.id = fmt::format("Upstream/{}/Ascend950/{}/{}/{}/CL{}", kind, cell.dtype, path,
                                      shape.name, cell.problem.compute_length);
                spec.suite = "upstream";
                spec.node_kind = kind;
                spec.dtype = cell.dtype;
                spec.arch = "Ascend950";
                spec.path = path;
                const std::string replay = conformance::replay_command(spec.id, binary, out_root, options);
                spec.run = [spec_copy = spec, cells, i, s, replay] {
                    CaseResult r = run_case(spec_copy, (*cells)[i], (*cells)[i].shapes[s]);
                    r.replay = replay;
                    return r;
                };
                out.push_back(std::move(spec));
            }
    }
    return out;
}

}  // namespace evg::upstream
