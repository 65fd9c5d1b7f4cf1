// Stand-in for Catlass's catlass/conv/device/device_conv.hpp on the model: the same class, members and
// include guard; the kernel launch goes to the model instead of bisheng's `<<<...>>>` syntax
// (evg_device_adapter.hpp).
#ifndef CATLASS_CONV_DEVICE_DEVICE_CONV_HPP
#define CATLASS_CONV_DEVICE_DEVICE_CONV_HPP

#include "evg_device_adapter.hpp"

namespace Catlass::Conv::Device {

template <class ConvKernel>
class DeviceConv : public ::evg::upstream::DeviceAdapter<ConvKernel> {};

}  // namespace Catlass::Conv::Device

#endif  // CATLASS_CONV_DEVICE_DEVICE_CONV_HPP
