#include "evg/fuzz/sync_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <exception>

#include "evg/conformance/examples.hpp"
#include "evg/props/generators.hpp"

namespace evg::fuzz {

Subject generated_subject(uint64_t random_seed, int size, hw::ArchId arch, bool ub, bool small,
                          const std::string& prefix) {
    props::GenConfig gen;
    gen.max_genes = small ? 5 : 8;
    gen.max_tiles = small ? 1 : 2;
    gen.float_share = 0;
    props::Spec spec = props::spec_gen(gen)(rc::Random(random_seed), size).value();
    spec.arch = arch;
    spec.ub_path = ub && arch == hw::ArchId::Ascend950;
    spec.arch_tile = false;
    spec.data = props::DataMode::Exact;
    spec.sched_seed = 0;
    if (small) spec.cores = 1;
    const props::Case c = props::decode(spec);
    return graph_subject(fmt::format("{}{}", prefix, props::summary(c)), c.problem, c.data_seed, c.cores);
}

Subject random_graph_subject(uint64_t seed, int index, hw::ArchId arch, bool ub, bool small) {
    // One Random per (seed, index): graph i of a run is the same whatever else the run holds.
    return generated_subject(seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(index) * 7919u + 1,
                             small ? 30 : 60, arch, ub, small, fmt::format("random#{} ", index));
}

std::vector<Subject> table_subjects(const TableOptions& opt) {
    auto wanted = [&](hw::ArchId a) {
        for (const hw::ArchId x : opt.archs)
            if (x == a) return true;
        return false;
    };
    std::vector<Subject> out;
    if (opt.kernels)
        for (Subject& k : kernel_subjects())
            if (wanted(k.arch)) out.push_back(std::move(k));
    if (opt.examples) {
        int n = 0;
        for (const conformance::ExampleProblem& ex : conformance::example_problems(opt.small)) {
            if (!wanted(ex.problem.arch)) continue;
            if (opt.max_examples >= 0 && n >= opt.max_examples) break;
            out.push_back(graph_subject(ex.id, ex.problem, ex.data_seed, opt.small ? 1 : 2));
            ++n;
        }
    }
    for (int i = 0; i < opt.graphs; ++i)
        for (const hw::ArchId a : opt.archs) {
            out.push_back(random_graph_subject(opt.seed, i, a, false, opt.small));
            if (a == hw::ArchId::Ascend950)
                out.push_back(random_graph_subject(opt.seed, i, a, true, opt.small));
        }
    if (opt.shards <= 1) return out;
    std::vector<Subject> mine;
    for (size_t i = static_cast<size_t>(opt.shard); i < out.size(); i += static_cast<size_t>(opt.shards))
        mine.push_back(std::move(out[i]));
    return mine;
}

reports::SyncTableData run_sync_table(const std::vector<Subject>& subjects, const TableOptions& opt) {
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };
    reports::SyncTableData t;
    t.command = opt.command;
    t.seed = opt.seed;
    t.graphs = opt.graphs;
    t.adversarial = opt.adversarial;
    for (const hw::ArchId a : opt.archs) t.archs.emplace_back(hw::arch_name(a));
    ClassifyOptions copt;
    copt.adversarial = opt.adversarial;
    int done = 0;
    for (const Subject& s : subjects) {
        if (opt.time_budget > 0 && elapsed() > opt.time_budget) {
            t.complete = false;
            break;
        }
        Reference ref;
        try {
            ref = reference_run(s);
        } catch (const std::exception& e) {
            t.skipped.push_back(fmt::format("{}: the unmutated run threw: {}", s.name, e.what()));
            ++done;
            continue;
        }
        if (!ref.clean) {
            t.skipped.push_back(fmt::format("{}: {}", s.name, ref.problem));
            ++done;
            continue;
        }
        ++t.subjects;
        for (const hw::SyncMutation& m : ref.points) {
            if (opt.time_budget > 0 && elapsed() > opt.time_budget) {
                t.complete = false;
                break;
            }
            const Classification c = classify(s, ref, {m}, copt);
            const std::string kind = node_kind(s, ref, m);
            const std::string op(hw::sync_op_name(m.op));
            reports::add_to_table(t, op, kind, c.verdict, c.checkers);
            if (c.verdict == SyncVerdict::caught && c.checker_kinds != c.explorer)
                ++t.kind_differences[fmt::format("{} / {}: checkers {} / explorer {}", op, kind,
                                                 fmt::join(c.checker_kinds, ","),
                                                 fmt::join(c.explorer, ","))];
            if (c.verdict != SyncVerdict::caught && c.verdict != SyncVerdict::reordered &&
                c.verdict != SyncVerdict::harmless)
                t.findings.push_back(
                    {c.verdict, s.name, kind, hw::to_string(m),
                     c.detail + (c.divergent_instr.empty()
                                     ? ""
                                     : "; first divergent instruction " + c.divergent_instr)});
        }
        ++done;
        t.seconds = elapsed();
        if (opt.progress) opt.progress(done, static_cast<int>(subjects.size()), t);
        if (!t.complete) break;
    }
    t.seconds = elapsed();
    return t;
}

}  // namespace evg::fuzz
