#include "evg/fuzz/kernel_subjects.hpp"

#ifdef EVG_HAVE_FUZZ_KERNELS
#include "evg/fuzz/kernels.hpp"
#endif

namespace evg::fuzz {

std::vector<Subject> kernel_subjects() {
    std::vector<Subject> out;
#ifdef EVG_HAVE_FUZZ_KERNELS
    for (const KernelCase& k : seed_kernels()) {
        Subject s;
        s.name = k.name;
        s.kernel = k.name.substr(0, k.name.find('/'));  // "epilogue_protocol/AtlasA2/tiles3" -> its kernel
        s.arch = k.arch;
        s.type = k.type;
        s.block_dim = k.block_dim;
        s.run = [run = k.run, arch = k.arch](const hw::Config& config) {
            hw::Config c = config;
            c.arch = arch;
            KernelRun r = run(c);
            SubjectRun out;
            out.report = std::move(r.report);
            out.trace = std::move(r.trace);
            out.outputs["out"] = std::move(r.outputs);
            return out;
        };
        out.push_back(std::move(s));
    }
#endif
    return out;
}

}  // namespace evg::fuzz
