// A library of no corpus instances, built three ways for the runner's ABI test (runner_abi_test.cpp):
// EVG_FIXTURE_STAMP 0 exports no stamp (an evgcheck before the stamp built it), 1 the stamp of another
// build's headers, 2 this build's own stamp (the control: the runner reads it and finds no instance 0).
#include <cstddef>

#include "corpus_abi.hpp"
#if EVG_FIXTURE_STAMP == 2
#include "corpus_load.hpp"
#endif

extern "C" [[gnu::visibility("default")]] const evg::upstream::corpus::Instance*
evg_upstream_corpus_instances(std::size_t* count) {
    *count = 0;
    return nullptr;
}
extern "C" [[gnu::visibility("default")]] evg::upstream::corpus::KernelCompilerInfo
evg_upstream_corpus_kernel_compiler() {
    return {"the fixture's (no kernel code)", true};
}
#if EVG_FIXTURE_STAMP == 1
extern "C" [[gnu::visibility("default")]] const char* evg_upstream_corpus_abi() {
    return "headers 0123456789abcdef layout 0123456789abcdef (another build)";
}
#elif EVG_FIXTURE_STAMP == 2
extern "C" [[gnu::visibility("default")]] const char* evg_upstream_corpus_abi() {
    return evg::upstream::corpus::corpus_abi_stamp().c_str();
}
#endif
