// The registry the generated instances of the upstream corpus add themselves to (corpus_gen.cpp writes one
// `Register` per instance), apart from upstream_harness.hpp: registry.cpp, compiled once per evgcheck build
// and linked into every corpus library, reads it without upstream's Catlass headers.
#pragma once
#include <vector>

#include "corpus_abi.hpp"

namespace evg_upstream_corpus {

inline std::vector<evg::upstream::corpus::Instance>& registry() {
    static std::vector<evg::upstream::corpus::Instance> instances;
    return instances;
}
struct Register {
    Register(int index, const char* name, const char* text,
             evg::upstream::corpus::InstanceRun (*run)(const evg::upstream::corpus::RunRequest&),
             evg::upstream::corpus::InstanceRun (*run_topological)(const evg::upstream::corpus::RunRequest&) =
                 nullptr) {
        registry().push_back({index, name, text, run, run_topological});
    }
};

}  // namespace evg_upstream_corpus
