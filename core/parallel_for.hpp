#pragma once
// parallel_for(space, n, f): calls f(i) for i in [0, n) on the backend that owns
// `space` — an OpenMP loop on the host, a grid-stride kernel on the device.
// Algorithms written with it exist once; only this engine differs per backend.
// The functor must be trivially copyable (raw pointers and scalars) and its
// operator() marked SAGA_HD. Each functor used on the device is instantiated
// once in a .cu file with SAGA_INSTANTIATE_DEVICE_FOR_EACH (see
// core/parallel_for.cuh).
#include <cstdint>

#include "core/dispatch.hpp"
#include "core/types.hpp"

namespace saga {

template <class F>
void device_for_each(std::int64_t n, const F& f);

template <class F>
void parallel_for(Space space, std::int64_t n, const F& f) {
  // No work, no parallel region: an OpenMP region costs ~15 ms where its
  // threads were never started (a GPU run's host side, measured on the H100
  // machine with OMP_NUM_THREADS unset).
  if (n <= 0) return;
  if (space == Space::host) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) f(i);
  } else {
    SAGA_DEVICE_CALL(device_for_each(n, f));
  }
}

}  // namespace saga
