// A fuzz target with two planted bugs, the fixture of `evgcheck fuzz`'s end-to-end test
// (fuzz_session_e2e.sh): an input starting with "EV" breaks an invariant through the EVG-FINDING contract,
// one starting with "HB" reads past a heap buffer (ASan's report). libFuzzer finds both within seconds (the
// comparisons are traced), and finds each many times, so the session must de-duplicate them to two findings.
#include <cstddef>
#include <cstdint>

#include "finding.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size >= 2 && data[0] == 'E' && data[1] == 'V') {
        evg::fuzz::evg_fuzz_finding("planted: an input starting with EV", "the planted invariant");
    }
    if (size >= 2 && data[0] == 'H' && data[1] == 'B') {
        // One buffer for the whole session, 8 bytes (a whole shadow granule): the byte past its end is always
        // in its redzone. A buffer allocated per input, of the input's size, sometimes ended a partial
        // granule at the end of the allocator's region, and ASan then reported an "unknown-crash": a third
        // finding.
        static uint8_t* const buffer = new uint8_t[8];
        for (size_t i = 0; i < 8; ++i) buffer[i] = i < size ? data[i] : 0;
        return buffer[8];  // one past the end
    }
    return 0;
}
