// upstream_corpus(): the instances the generated files registered, in index order (corpus_abi.hpp).
//
// Two libraries of the same instances can live in one process (the default kernel compiler's, linked, and the
// other compiler's, loaded with dlopen: corpus_order_test.cpp). Both export the same names, and a call
// through an exported name binds to the first library that defines it, so the extern "C" entries a dlopen'ed
// library is reached by call this library's own (internal) functions, never the exported C++ names.
#include <algorithm>
#include <filesystem>
#include <string>

#include "acl/kernel_compiler.hpp"
#include "acl/kernel_order.hpp"

#include "corpus_load.hpp"
#include "corpus_registry.hpp"
#include "evg/hw/site.hpp"

namespace evg::upstream::corpus {
namespace {

// This folder is evgcheck's harness (upstream_harness.hpp), not a user's program (evg/hw/site.hpp): a corpus
// launch is no user's launch, so the ACL shim neither heads its findings with a line of it nor captures call
// chains for it, which nothing here reads (InstanceRun::report is the device's report) and which were two
// thirds of a run (callgrind, BM_UpstreamCorpusRunOnly). Registered by this file, which every corpus library
// holds (cmake/evg_upstream_side_library.cmake), at the library's load.
[[maybe_unused]] const bool harness_dir_registered = evg::hw::register_code_dir(
    std::filesystem::path(__FILE__).parent_path().string(), evg::hw::SiteOwner::evgcheck);

std::span<const Instance> own_instances() {
    static const std::vector<Instance> sorted = [] {
        std::vector<Instance> v = evg_upstream_corpus::registry();
        std::sort(v.begin(), v.end(), [](const Instance& a, const Instance& b) { return a.index < b.index; });
        return v;
    }();
    return sorted;
}

KernelCompilerInfo own_kernel_compiler() {
    static const std::string description = acl::describe_kernel_compilers();
    static const bool left_to_right = acl::program_in_bishengs_order().value_or(false);
    return {description.c_str(), left_to_right};
}

}  // namespace

std::span<const Instance> upstream_corpus() {
    return own_instances();
}

KernelCompilerInfo upstream_corpus_kernel_compiler() {
    return own_kernel_compiler();
}

}  // namespace evg::upstream::corpus

// The same for a library loaded at run time (dlopen; upstream/shrink/runner.cpp): names dlsym finds as they
// are.
extern "C" [[gnu::visibility("default")]] const evg::upstream::corpus::Instance*
evg_upstream_corpus_instances(std::size_t* count) {
    const std::span<const evg::upstream::corpus::Instance> all = evg::upstream::corpus::own_instances();
    *count = all.size();
    return all.data();
}
extern "C" [[gnu::visibility("default")]] evg::upstream::corpus::KernelCompilerInfo
evg_upstream_corpus_kernel_compiler() {
    return evg::upstream::corpus::own_kernel_compiler();
}
// The stamp of the boundary this library was built with (corpus_load.hpp): a loader reads nothing else
// of a library whose stamp is not its own.
extern "C" [[gnu::visibility("default")]] const char* evg_upstream_corpus_abi() {
    return evg::upstream::corpus::corpus_abi_stamp().c_str();
}
