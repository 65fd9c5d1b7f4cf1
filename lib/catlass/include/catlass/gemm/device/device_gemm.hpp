// DeviceGemm<Kernel>: the host adapter (docs/evg-semantics.md §6.5). GetWorkspaceSize / CanImplement /
// Initialize run on the host; operator() launches the kernel as a mix AIC + 2 AIV kernel on blockDim AI cores
// of the kernel's ArchTag through the ACL shim. Host code then calls aclrtSynchronizeStream, which returns an
// error (and prints the report) if the model found a violation.
#pragma once
#include <cstddef>
#include <cstdint>

#include "acl/acl.h"
#include "catlass/catlass.hpp"

namespace Catlass::Gemm::Device {

template <class GemmKernel>
class DeviceGemm {
  public:
    using Kernel = GemmKernel;
    using Arguments = typename Kernel::Arguments;
    using Params = typename Kernel::Params;

    DeviceGemm() = default;

    static Status CanImplement(const Arguments& args) {
        return Kernel::CanImplement(args) ? Status::kSuccess : Status::kInvalid;
    }

    static size_t GetWorkspaceSize(const Arguments& args) { return Kernel::GetWorkspaceSize(args); }

    // Host: Params = Kernel::ToUnderlyingArguments (which initialises the EVG's workspace).
    Status Initialize(const Arguments& args, uint8_t* workspace = nullptr, aclrtStream /*stream*/ = nullptr) {
        if (GetWorkspaceSize(args) > 0 && workspace == nullptr) return Status::kErrorWorkspaceNull;
        params_ = Kernel::ToUnderlyingArguments(args, workspace);
        initialized_ = true;
        return Status::kSuccess;
    }

    Status Run(aclrtStream stream, uint32_t blockDim, uint64_t fftsAddr = 0) {
        if (!initialized_) return Status::kInvalid;
        Params params = params_;
        aclError e = evg::acl::launch(
            stream, blockDim, evg::hw::KernelType::mix_aic_1_2,
            [params, fftsAddr] {
                AscendC::SetSyncBaseAddr(fftsAddr);
                Kernel kernel;
                kernel(params);
            },
            Kernel::ArchTag::EVG_ARCH);
        return e == ACL_SUCCESS ? Status::kSuccess : Status::kInvalid;
    }

    Status operator()(aclrtStream stream, uint32_t blockDim, uint64_t fftsAddr = 0) {
        return Run(stream, blockDim, fftsAddr);
    }

    const Params& GetParams() const { return params_; }

  private:
    Params params_{};
    bool initialized_ = false;
};

}  // namespace Catlass::Gemm::Device
