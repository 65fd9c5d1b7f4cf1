// The launch a fault or stop signal is about (fault_watch.hpp): Machine::run holds one of these while it
// runs, which installs the signal handlers the first time and names the running launch to them.
#pragma once

namespace evg::hw {
class Machine;
namespace detail {

class LaunchWatch {
  public:
    explicit LaunchWatch(Machine& m);
    ~LaunchWatch();
    LaunchWatch(const LaunchWatch&) = delete;
    LaunchWatch& operator=(const LaunchWatch&) = delete;

  private:
    Machine* outer_;  // the launch this thread ran before (launches do not nest; kept to be safe)
};

}  // namespace detail
}  // namespace evg::hw
