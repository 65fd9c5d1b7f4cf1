// Stand-in for Catlass's catlass/gemm/device/device_gemm.hpp on the model: the same class, members and
// include guard; the kernel launch goes to the model instead of bisheng's `<<<...>>>` syntax
// (evg_device_adapter.hpp).
#ifndef CATLASS_GEMM_DEVICE_DEVICE_GEMM_HPP
#define CATLASS_GEMM_DEVICE_DEVICE_GEMM_HPP

#include "evg_device_adapter.hpp"

namespace Catlass::Gemm::Device {

template <class GemmKernel>
class DeviceGemm : public ::evg::upstream::DeviceAdapter<GemmKernel> {
  public:
    using Kernel = GemmKernel;
};

}  // namespace Catlass::Gemm::Device

#endif  // CATLASS_GEMM_DEVICE_DEVICE_GEMM_HPP
