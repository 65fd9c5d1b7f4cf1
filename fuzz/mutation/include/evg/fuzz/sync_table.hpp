// The SYNC mutation table run (fuzz/mutation/README.md): the subjects (seed examples, random graphs from the
// property generators on both chips and both workspace paths, seed kernels), every mutation point x operator
// of each, classified (mutation.hpp) and counted per operator x node kind into a reports::SyncTableData.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "evg/fuzz/kernel_subjects.hpp"
#include "evg/fuzz/mutation.hpp"
#include "evg/fuzz/subject.hpp"
#include "evg/reports/sync_table.hpp"

namespace evg::fuzz {

struct TableOptions {
    int graphs = 200;   // random graphs (each on every arch and path of `archs`)
    uint64_t seed = 1;  // of the random graphs
    std::vector<hw::ArchId> archs = {hw::ArchId::AtlasA2, hw::ArchId::Ascend950};
    bool examples = true;   // every seed example
    int max_examples = -1;  // at most this many example runs (-1: all)
    bool small = false;     // examples on one small shape; random graphs on one tile, one core
    bool kernels = true;    // the seed kernels (when fuzz/kernels is built)
    int adversarial = 3;    // schedules per harmless mutation
    int shard = 0;          // this run takes subjects i with i % shards == shard (`--shard K/N`: K-1, N)
    int shards = 1;
    double time_budget = 0;  // seconds; 0: none. The run stops between mutations, incomplete.
    std::string command;     // recorded in the table
    // After every subject: subjects done, subjects in all, mutations classified so far, the table so far.
    std::function<void(int, int, const reports::SyncTableData&)> progress;
};

// A random graph problem: the property generators' Spec drawn from rc::Random(random_seed) at `size`, then
// put on `arch` and the UB workspace path when `ub` (Ascend950 only), exact data, in-order scheduling; with
// `small`, at most one tile per dimension, five genes and one core. Its name is `prefix` + props::summary.
Subject generated_subject(uint64_t random_seed, int size, hw::ArchId arch, bool ub, bool small,
                          const std::string& prefix);

// The random graph `index` of a table run: the property generators' Spec from (seed, index), on `arch` and
// `ub` (Ascend950 only), small shapes, exact data, in-order scheduling.
Subject random_graph_subject(uint64_t seed, int index, hw::ArchId arch, bool ub, bool small);

// Every subject of a table run, in order (seed kernels, examples, random graphs); of a shard, every
// `shards`-th of them from the `shard`-th, so that the shards of one table split the work evenly and together
// hold each subject once.
std::vector<Subject> table_subjects(const TableOptions& opt);

// Runs the table over `subjects`.
reports::SyncTableData run_sync_table(const std::vector<Subject>& subjects, const TableOptions& opt);

}  // namespace evg::fuzz
