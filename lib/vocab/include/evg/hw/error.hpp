// The project's exception root: every runtime misuse a user can cause derives from evg::Error.
#pragma once
#include <stdexcept>
#include <string>

namespace evg {

class Error : public std::runtime_error {
  public:
    explicit Error(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace evg

namespace evg::hw {

// Misuse of the machine from host code (bad launch, allocation failure, ...).
class HostError : public evg::Error {
  public:
    using evg::Error::Error;
};

// Kernel code called an AscendC function that is declared (so that upstream headers compile) but that the
// model does not execute. Thrown on the core that made the call; the launch reports it.
class UnmodelledCall : public evg::Error {
  public:
    using evg::Error::Error;
};

// Kernel code failed an `assert` (ascendc/device_assert.hpp). Thrown on the core that failed it.
class DeviceAssertion : public evg::Error {
  public:
    using evg::Error::Error;
};

}  // namespace evg::hw
