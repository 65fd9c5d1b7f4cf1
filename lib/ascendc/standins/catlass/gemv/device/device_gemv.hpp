// Stand-in for Catlass's catlass/gemv/device/device_gemv.hpp on the model: the same class, members and
// include guard; the kernel launch goes to the model instead of bisheng's `<<<...>>>` syntax
// (evg_device_adapter.hpp).
#ifndef CATLASS_GEMV_DEVICE_DEVICE_GEMV_HPP
#define CATLASS_GEMV_DEVICE_DEVICE_GEMV_HPP

#include "evg_device_adapter.hpp"

namespace Catlass::Gemv::Device {

template <class GemvKernel>
class DeviceGemv : public ::evg::upstream::DeviceAdapter<GemvKernel> {};

}  // namespace Catlass::Gemv::Device

#endif  // CATLASS_GEMV_DEVICE_DEVICE_GEMV_HPP
