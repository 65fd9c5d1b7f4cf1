// upstream_corpus(): the instances the generated files registered, in index order (corpus_abi.hpp).
#include <algorithm>

#include "upstream_harness.hpp"

namespace evg::upstream::corpus {

std::span<const Instance> upstream_corpus() {
    static const std::vector<Instance> sorted = [] {
        std::vector<Instance> v = evg_upstream_corpus::registry();
        std::sort(v.begin(), v.end(), [](const Instance& a, const Instance& b) { return a.index < b.index; });
        return v;
    }();
    return sorted;
}

}  // namespace evg::upstream::corpus

// The same for a library loaded at run time (dlopen; upstream/shrink/runner.cpp): a name dlsym finds as is.
extern "C" [[gnu::visibility("default")]] const evg::upstream::corpus::Instance*
evg_upstream_corpus_instances(std::size_t* count) {
    const std::span<const evg::upstream::corpus::Instance> all = evg::upstream::corpus::upstream_corpus();
    *count = all.size();
    return all.data();
}
