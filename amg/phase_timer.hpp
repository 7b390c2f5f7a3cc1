#pragma once
// Wall-clock phase timing that is true for device work: the device is
// synchronised when a phase ends, once. The setup's phases follow one another,
// so that wait also starts the next phase on an idle device (the waits before
// each phase, and the pool-peak reads' own, were three more round trips a
// phase: ~120 per setup of a 4-level hierarchy, docs/profiling.md).
//
// The wait at the end is kept, not replaced by device events: without it the
// setup's next phase allocates while the stream still holds the previous
// one's frees, and near the end of the device memory the pool then ran out
// where it had not (the GPU test of the Galerkin product's out-of-memory
// retry; docs/profiling.md).
#include <chrono>

#include "core/device.hpp"

namespace saga {

class PhaseTimer {
 public:
  explicit PhaseTimer(bool device) : device_(device) {}
  template <class F>
  auto time(double& seconds, F&& f) {
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
