// The host side of a Catlass device adapter (DeviceGemm, DeviceConv, DeviceGemv), launching on the model.
//
// Upstream's adapters launch with bisheng's kernel-call syntax, `KernelAdapter<Kernel><<<blockDim, nullptr,
// stream>>>(params)`, which GCC and clang cannot parse. This is the one part of upstream Catlass that
// evgcheck stands in for (docs/ascendc-device-environment.md, "Stand-ins"): the three headers beside this one
// keep upstream's include paths, include guards, class names and members, and launch upstream's own
// `Catlass::KernelAdapter<Kernel>` on every core of the model, as bisheng lowers the `<<<...>>>` call.
//
// The launch is a mixed launch of blockDim AI cores (one AIC and two AIVs each), on the chip the build is for
// (CATLASS_ARCH). The report of the run is kept on the stream until aclrtSynchronizeStream, which prints it
// and returns an error when a checker fired.
#pragma once
#include <acl/acl.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>

#include "catlass/catlass.hpp"
#include "catlass/detail/kernel_adapter.hpp"
#include "catlass/status.hpp"

#if !defined(CATLASS_ARCH) || (CATLASS_ARCH != 2201 && CATLASS_ARCH != 3510)
#error "evgcheck: CATLASS_ARCH must be 2201 (AtlasA2) or 3510 (Ascend950); link evg::ascendc_device_<arch>"
#endif

namespace evg::upstream {

// This folder holds evgcheck's code, not the user's (evg/hw/site.hpp).
inline const bool standins_dir_registered = ::evg::hw::register_code_dir(
    std::filesystem::path(__FILE__).parent_path().string(), ::evg::hw::SiteOwner::evgcheck);

inline constexpr ::evg::hw::ArchId build_arch =
    CATLASS_ARCH == 2201 ? ::evg::hw::ArchId::AtlasA2 : ::evg::hw::ArchId::Ascend950;

// Members shared by DeviceGemm, DeviceConv and DeviceGemv, with upstream's names and signatures.
template <class OperatorKernel>
class DeviceAdapter {
  public:
    using Arguments = typename OperatorKernel::Arguments;
    using Params = typename OperatorKernel::Params;

    Params const& params() const { return params_; }

    static ::Catlass::Status CanImplement(Arguments const& args) {
        return OperatorKernel::CanImplement(args) ? ::Catlass::Status::kSuccess : ::Catlass::Status::kInvalid;
    }

    static size_t GetWorkspaceSize(Arguments const& args) { return OperatorKernel::GetWorkspaceSize(args); }

    ::Catlass::Status Initialize(Arguments const& args, uint8_t* workspace = nullptr,
                                 aclrtStream /*stream*/ = nullptr) {
        params_ = OperatorKernel::ToUnderlyingArguments(args, workspace);
        return ::Catlass::Status::kSuccess;
    }

    // hardwareSyncAddr: the FFTS base address AtlasA2 kernels are given (upstream passes it to
    // KernelAdapter's second overload, which calls AscendC::SetSyncBaseAddr first); ignored on Ascend950.
    // `site`: the user's line that launched the kernel, which heads its findings (acl/acl.h,
    // evg::acl::launch).
    inline ::Catlass::Status Run(aclrtStream stream, uint32_t blockDim, uint64_t hardwareSyncAddr,
                                 ::evg::hw::Site site = ::evg::hw::Site::here()) {
        Params params = params_;
        aclError e = ::evg::acl::launch(
            stream, blockDim, ::evg::hw::KernelType::mix_aic_1_2,
            [params, hardwareSyncAddr] {
                if (build_arch == ::evg::hw::ArchId::AtlasA2 && hardwareSyncAddr != 0) {
                    ::Catlass::KernelAdapter<OperatorKernel>(params, hardwareSyncAddr);
                } else {
                    ::Catlass::KernelAdapter<OperatorKernel>(params);
                }
            },
            build_arch, site);
        return e == ACL_SUCCESS ? ::Catlass::Status::kSuccess : ::Catlass::Status::kInvalid;
    }

    inline ::Catlass::Status operator()(aclrtStream stream, uint32_t blockDim,
                                        ::evg::hw::Site site = ::evg::hw::Site::here()) {
        return Run(stream, blockDim, 0, site);
    }

    inline ::Catlass::Status operator()(aclrtStream stream, uint32_t blockDim, uint64_t hardwareSyncAddr,
                                        ::evg::hw::Site site = ::evg::hw::Site::here()) {
        return Run(stream, blockDim, hardwareSyncAddr, site);
    }

  private:
    Params params_{};
};

}  // namespace evg::upstream
