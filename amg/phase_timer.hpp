#pragma once
// Wall-clock phase timing that is true for device work: the device is
// synchronised before the clock starts and before it stops.
#include <chrono>
#include <map>
#include <string>

#include "core/device.hpp"

namespace saga {

class PhaseTimer {
 public:
  explicit PhaseTimer(bool device) : device_(device) {}
  template <class F>
  auto time(double& seconds, F&& f) {
    if (device_) device::synchronize();
    const auto t0 = std::chrono::steady_clock::now();
    struct Stop {
      PhaseTimer* self;
      double& s;
      std::chrono::steady_clock::time_point t0;
      ~Stop() {
        // A device error surfaces at the next checked call; never throw here.
        if (self->device_) try {
            device::synchronize();
          } catch (...) {
          }
        s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      }
    } stop{this, seconds, t0};
    return f();
  }

 private:
  bool device_;
};

}  // namespace saga
