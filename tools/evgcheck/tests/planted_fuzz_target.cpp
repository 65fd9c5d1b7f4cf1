// A fuzz target with two planted bugs, the fixture of `evgcheck fuzz`'s end-to-end test
// (fuzz_session_e2e.sh): an input starting with "EV" breaks an invariant through the EVG-FINDING contract,
// one starting with "HB" reads past a heap buffer (ASan's report). libFuzzer finds both within seconds (the
// comparisons are traced), and finds each many times, so the session must de-duplicate them to two findings.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "finding.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size >= 2 && data[0] == 'E' && data[1] == 'V') {
        evg::fuzz::evg_fuzz_finding("planted: an input starting with EV", "the planted invariant");
    }
    if (size >= 2 && data[0] == 'H' && data[1] == 'B') {
        const std::unique_ptr<uint8_t[]> copy(new uint8_t[size]);
        for (size_t i = 0; i < size; ++i) copy[i] = data[i];
        return copy[size];  // one past the end
    }
    return 0;
}
